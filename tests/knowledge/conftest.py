"""Knowledge-base fixtures: each store (Chroma in a temp dir, PostgreSQL in a fresh schema) with a
fast deterministic embedder. A test using `open_kb` runs once per store; one marked `chroma` tests
the Chroma store's own workings and runs on it alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from adaptive_rag.knowledge.chroma.store import ChromaStore
from adaptive_rag.knowledge.postgres.store import PostgresStore
from fake_sources import HashEmbeddings


@pytest.fixture(autouse=True)
def _isolated_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADAPTIVE_RAG_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("CHROMA_HOST", raising=False)


@pytest.fixture
def open_kb(tmp_path: Path, store: str, request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    """Open (creating) a collection in the test's store; another `path` is another knowledge base."""
    schemas: dict[Path, str] = {}

    def make(
        collection: str = "test",
        create: bool = True,
        path: Path | None = None,
        embedding_model: str = "test:hash",
    ) -> Any:
        where = path or tmp_path / "kb"
        vectors = HashEmbeddings() if embedding_model == "test:hash" else None
        if store == "chroma":
            return ChromaStore.open(str(where), collection, embedding_model, create, vectors)
        if where not in schemas:
            schemas[where] = request.getfixturevalue("pg_schemas").fresh()
        return PostgresStore.open(schemas[where], collection, embedding_model, create, vectors)

    return make
