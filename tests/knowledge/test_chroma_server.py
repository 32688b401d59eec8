"""The same knowledge base against a real `chroma run` server on loopback (CHROMA_HOST/PORT)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from adaptive_rag.knowledge.chroma.store import ChromaStore
from adaptive_rag.knowledge.retriever import HybridRetriever
from fake_sources import SAMPLE, HashEmbeddings
from servers import chroma_process, free_port

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    port = free_port()
    with chroma_process(tmp_path_factory.mktemp("chroma-server"), port):
        yield "127.0.0.1", port


def test_ingest_search_update_and_delete_through_the_server(
    chroma_server: tuple[str, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    host, port = chroma_server
    monkeypatch.setenv("CHROMA_HOST", host)
    monkeypatch.setenv("CHROMA_PORT", str(port))
    docs = tmp_path / "docs"
    shutil.copytree(SAMPLE, docs)

    def open_kb(create: bool) -> ChromaStore:
        return ChromaStore.open(
            "", "server-test", "test:hash", create=create, embeddings=HashEmbeddings()
        )

    kb = open_kb(create=True)
    assert kb.location == f"Chroma server {host}:{port}"
    report = kb.ingest([str(docs)], progress=False)
    assert len(report.added) == 8 and kb.count() == report.chunks_added
    assert open_kb(create=True).ingest([str(docs)], progress=False).chunks_added == 0
    hits = HybridRetriever(kb=open_kb(create=False), k=2).invoke("restocking fee for returns")
    assert hits and hits[0].metadata["title"] == "Returns"
    returns = str((docs / "policies" / "returns.md").resolve())
    assert kb.delete(returns) > 0
    after: Any = HybridRetriever(kb=open_kb(create=False), k=3, mode="keyword").invoke(
        "restocking fee"
    )
    assert all(h.metadata["source"] != returns for h in after)
