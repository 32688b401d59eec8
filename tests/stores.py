"""Both knowledge-base stores for tests: Chroma in a temp folder, PostgreSQL in a fresh schema.

`make test` runs the tiers under scripts/test-env, whose PostgreSQL has pgvector (POSTGRES_URI).
Each PostgreSQL store a test opens lives in a schema of its own, dropped when the test ends, so
tests never see each other's collections.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from servers import unavailable

STORES = ("chroma", "postgres")


def server_uri() -> str:
    """Return the test PostgreSQL's URI, or skip (fail under `make test`) when there is none."""
    uri = os.environ.get("POSTGRES_URI", "")
    if not uri:
        unavailable("POSTGRES_URI is not set (scripts/test-env starts a PostgreSQL and sets it)")
    return uri


class Schemas:
    """Fresh schemas on the test server, each as a URI whose tables go there; dropped on close."""

    def __init__(self, uri: str) -> None:
        self._uri = uri
        self._made: list[str] = []

    def fresh(self) -> str:
        """Return the URI of a new, empty schema (pgvector's types still found in public)."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:16]}"
        with psycopg.connect(self._uri, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            conn.execute(f"CREATE SCHEMA {name}")
        self._made.append(name)
        joiner = "&" if "?" in self._uri else "?"
        return f"{self._uri}{joiner}options={quote(f'-csearch_path={name},public')}"

    def close(self) -> None:
        """Drop every schema made (closing this process's pools to them first)."""
        import psycopg
        from adaptive_rag.knowledge.postgres import store

        with store._POOLS_LOCK:
            for key in [k for k in store._POOLS if any(n in k[0] for n in self._made)]:
                store._POOLS.pop(key).close()
        with psycopg.connect(self._uri, autocommit=True) as conn:
            for name in self._made:
                conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The store a test runs on: with "postgres", KNOWLEDGE_URI names a fresh schema, so every
    store the test opens (knowledge.opening.open_store) is there."""
    monkeypatch.delenv("KNOWLEDGE_URI", raising=False)
    if request.param == "postgres":
        monkeypatch.setenv("KNOWLEDGE_URI", request.getfixturevalue("pg_schemas").fresh())
    return str(request.param)


def chroma_alone(items: list[pytest.Item]) -> None:
    """Run a test marked `chroma` (it tests the Chroma store's own workings) on that store alone."""
    items[:] = [
        item
        for item in items
        if not (
            item.get_closest_marker("chroma")
            and getattr(item, "callspec", None) is not None
            and item.callspec.params.get("store") == "postgres"  # type: ignore[attr-defined]
        )
    ]


@pytest.fixture
def pg_schemas() -> Iterator[Schemas]:
    """Fresh PostgreSQL schemas for one test."""
    schemas = Schemas(server_uri())
    try:
        yield schemas
    finally:
        schemas.close()


def ids_where(kb: object, **meta: object) -> list[str]:
    """Return the ids of a store's chunks whose metadata hold these values (read through
    KnowledgeStore.stored, as any store gives it), in id order."""
    stored = kb.stored()  # type: ignore[attr-defined]
    return sorted(c.id for c in stored if all(c.metadata.get(k) == v for k, v in meta.items()))
