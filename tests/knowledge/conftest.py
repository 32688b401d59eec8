"""Knowledge-base fixtures: a real Chroma in a temp dir with a fast deterministic embedder."""

from __future__ import annotations

from pathlib import Path

import pytest
from adaptive_rag.knowledge.store import KnowledgeBase
from fake_sources import HashEmbeddings


@pytest.fixture(autouse=True)
def _isolated_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADAPTIVE_RAG_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("CHROMA_HOST", raising=False)


@pytest.fixture
def open_kb(tmp_path: Path):  # type: ignore[no-untyped-def]
    def make(
        collection: str = "test", create: bool = True, path: Path | None = None
    ) -> KnowledgeBase:
        return KnowledgeBase.open(
            str(path or tmp_path / "kb"),
            collection,
            "test:hash",
            create=create,
            embeddings=HashEmbeddings(),
        )

    return make
