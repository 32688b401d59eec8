"""`adaptive-rag copy`: a Chroma collection into PostgreSQL, vectors and all, embedding nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from adaptive_rag.cli import main as cli
from adaptive_rag.core.access import Reader
from adaptive_rag.knowledge import embeddings
from adaptive_rag.knowledge.chroma.store import ChromaStore
from adaptive_rag.knowledge.postgres.store import PostgresStore
from adaptive_rag.knowledge.retriever import HybridRetriever
from fake_sources import SAMPLE, HashEmbeddings
from typer.testing import CliRunner


class Counted(HashEmbeddings):
    """Hash embeddings that count their calls."""

    calls: int = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        return super().embed_documents(texts)


def test_a_copy_moves_every_chunk_vector_section_and_reader_and_searches_the_same(
    tmp_path: Path, pg_schemas: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    counted = Counted()
    chroma = ChromaStore.open(str(tmp_path / "kb"), "docs", "test:hash", True, counted)
    chroma.ingest([str(SAMPLE / "policies")], progress=False)
    chroma.ingest([str(SAMPLE / "company.md")], progress=False, owner="alice", groups=("hr",))
    embedded = counted.calls
    uri = pg_schemas.fresh()
    monkeypatch.setattr(embeddings, "_CACHE", {"test:hash": HashEmbeddings()})
    args = ["copy", "--to", uri, "--collection", "docs", "--kb-path", str(tmp_path / "kb")]
    result = CliRunner().invoke(cli.app, [*args, "--embedding-model", "test:hash"])
    assert result.exit_code == 0, result.output
    assert (
        "copied 3 documents (6 chunks" in result.output and "0 were there already" in result.output
    )
    assert counted.calls == embedded  # nothing embedded again
    copy = PostgresStore.open(uri, "docs", "test:hash", embeddings=HashEmbeddings())
    assert copy.count() == chroma.count() and copy.sources() == chroma.sources()
    before, after = sorted(chroma.stored(vectors=True)), sorted(copy.stored(vectors=True))
    assert [c[:3] for c in before] == [c[:3] for c in after]  # ids, texts, metadata
    assert np.allclose([c.vector for c in before], [c.vector for c in after], atol=1e-6)
    sections = [
        sorted((i, text, meta["source"], meta["owner"]) for i, text, meta in kb.stored_sections())
        for kb in (chroma, copy)
    ]
    assert sections[0] == sections[1] and sections[0]
    for reader in (Reader(), Reader("alice"), Reader("bob", ("hr",))):
        for question in ("What is the restocking fee?", "Who founded the company?"):
            asked = [
                HybridRetriever(kb=kb, k=4, reader=reader).invoke(question) for kb in (chroma, copy)
            ]
            assert [d.id for d in asked[0]] == [d.id for d in asked[1]], (reader, question)
    again = CliRunner().invoke(cli.app, [*args, "--embedding-model", "test:hash"])
    assert again.exit_code == 0 and "copied 0 documents" in again.output
    # readers changed in the source (same chunk ids): the copy follows, and grows with it
    chroma.ingest([str(SAMPLE / "company.md")], progress=False, owner="alice", groups=("fin",))
    regrouped = CliRunner().invoke(cli.app, [*args, "--embedding-model", "test:hash"])
    assert regrouped.exit_code == 0 and "copied 1 document (" in regrouped.output
    assert copy.sources() == chroma.sources() and copy.count() == chroma.count()


def test_a_copy_needs_a_postgresql_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("KNOWLEDGE_URI", raising=False)
    result = CliRunner().invoke(cli.app, ["copy", "--kb-path", str(tmp_path / "kb")])
    assert result.exit_code == 2 and "--to postgresql://" in result.output
