"""Bring a collection written by an older version up to date on open, without re-embedding.

Each step runs once per collection and marks it done in the collection's metadata; a step cut
short (a crash, kill -9) is not marked, so the next open runs it again from the start (every step
can run twice). Steps write chunk metadata only: vectors and texts are never touched.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

from adaptive_rag.core.access import OWNER, PUBLIC
from adaptive_rag.core.text import VERSION, entities_of
from adaptive_rag.knowledge.chunking import index_text
from langchain_core.documents import Document

PAGE = 5000  # Chroma's SQLite refuses one query over ~32k variables: read big collections in pages
ACCESS_CONTROL = "access_control"
"""Collection metadata: every chunk carries an owner (core.access); older ones are backfilled."""
ENTITIES = "entities"
"""Chunk metadata: the chunk's entity keys (core.text); collection metadata: their version."""
QUIET_BELOW = 500
"""Collections smaller than this upgrade without a progress bar (they take about a second)."""


def get_all(collection: Any, include: list[str]) -> dict[str, list[Any]]:
    """Read a whole collection page by page (ids plus the included fields)."""
    merged: dict[str, list[Any]] = {"ids": [], **{key: [] for key in include}}
    for page in pages(collection, include):
        for key in merged:
            merged[key].extend(page[key] if page[key] is not None else [])
    return merged


def pages(collection: Any, include: list[str]) -> Iterator[dict[str, list[Any]]]:
    """Yield a whole collection page by page (ids plus the included fields), as Chroma gives it."""
    offset = 0
    while True:
        page = collection.get(include=include, limit=PAGE, offset=offset)
        yield page
        if len(page["ids"]) < PAGE:
            return
        offset += PAGE


def backfill_access(chunks: Any, parents: Any) -> None:
    """Mark chunks written before access control as readable by all, as they were."""
    for store in (chunks, parents):
        everything = get_all(store, ["metadatas"])
        missing = [
            (cid, {**(meta or {}), OWNER: PUBLIC})
            for cid, meta in zip(everything["ids"], everything["metadatas"], strict=True)
            if OWNER not in (meta or {})
        ]
        for start in range(0, len(missing), PAGE):
            batch = missing[start : start + PAGE]
            store.update(ids=[c for c, _ in batch], metadatas=[m for _, m in batch])


def backfill_entities(chunks: Any) -> None:
    """Extract and store every chunk's entities (core.text.entities), with a progress bar."""
    from tqdm import tqdm

    everything = get_all(chunks, ["documents", "metadatas"])
    total = len(everything["ids"])
    rows = zip(everything["ids"], everything["documents"], everything["metadatas"], strict=True)
    with tqdm(
        total=total, desc="Entities", unit="chunk", file=sys.stderr, disable=total < QUIET_BELOW
    ) as bar:
        batch: list[tuple[str, dict[str, Any]]] = []
        for cid, text, meta in rows:
            chunk = Document(page_content=text or "", metadata=meta or {})
            found = entities_of(index_text(chunk, described=False))
            batch.append((cid, {ENTITIES: found or None}))  # None removes a stale list
            if len(batch) == PAGE:
                chunks.update(ids=[c for c, _ in batch], metadatas=[m for _, m in batch])
                bar.update(len(batch))
                batch = []
        if batch:
            chunks.update(ids=[c for c, _ in batch], metadatas=[m for _, m in batch])
            bar.update(len(batch))


def pending(metadata: dict[str, Any]) -> bool:
    """Whether a collection with this metadata has a step still to run."""
    return not metadata.get(ACCESS_CONTROL) or metadata.get(ENTITIES) != VERSION


def upgrade(collection: Any, chunks: Any, parents: Any, metadata: dict[str, Any]) -> bool:
    """Run the steps a collection has not had; return whether its chunks' entities changed."""
    if not metadata.get(ACCESS_CONTROL):
        backfill_access(chunks, parents)
        _mark(collection, {ACCESS_CONTROL: 1})
    if metadata.get(ENTITIES) == VERSION:
        return False
    backfill_entities(chunks)
    _mark(collection, {ENTITIES: VERSION})
    return True


def _mark(collection: Any, done: dict[str, Any]) -> None:
    """Record finished steps in the collection's metadata (keeping what it holds)."""
    collection.modify(metadata={**(collection.metadata or {}), **done})
