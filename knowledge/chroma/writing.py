"""How the Chroma store writes: a prepared document's chunks and sections, and a deletion.

A write is whole per chunk (each written by id), not per document: the revision bump before and
after an ingest (`writing` set between them) tells every reader to rebuild what it derived, and an
ingest a crash interrupted is bumped again by the next one.
"""

from __future__ import annotations

import secrets
import threading
from abc import abstractmethod
from typing import Any

from adaptive_rag.core.access import OWNER, PUBLIC
from adaptive_rag.core.text import VERSION
from adaptive_rag.knowledge.chroma.answers import ChromaAnswers
from adaptive_rag.knowledge.chroma.derived import DerivedIndex
from adaptive_rag.knowledge.chroma.upgrade import ACCESS_CONTROL, ENTITIES
from adaptive_rag.knowledge.errors import KnowledgeBaseError
from adaptive_rag.knowledge.ingest import Ingestion
from adaptive_rag.knowledge.preparing import (
    IngestReport,
    Lookup,
    Prepared,
    Stored,
    stored_metadata,
)

TOKEN = "revision_token"
"""Collection metadata: a value no other write gives it, set with every revision bump."""


def of_source(source: str, owner: str) -> dict[str, Any]:
    """Return the Chroma `where` of one source: its name under its owner ("" for public)."""
    return {"$and": [{"source": source}, {OWNER: owner}]}


class ChromaWrites(Ingestion):
    """The Chroma store's writes (ChromaStore provides the collections and the revision)."""

    _client: Any
    _chunks: Any
    _parents: Any
    _lock: threading.Lock
    _derived: DerivedIndex | None

    def _bump(self, refresh: bool = True, writing: bool = False) -> None:
        """Advance the revision (with a new token) so every process rebuilds its derived index once.

        Read, changed and written under the write lock, so no process on this machine loses
        another's bump. `writing` marks an ingest under way; one that a crash left marked is
        bumped on the next run even if it has nothing left to write (an index built mid-write
        is stale).
        """
        with self._writing():
            collection = self._client.get_collection(self.name, embedding_function=None)
            meta = dict(collection.metadata or {})
            meta["revision"] = int(meta.get("revision", 0)) + 1
            meta[TOKEN] = secrets.token_hex(8)
            meta["writing"] = int(writing)
            collection.modify(metadata=meta)
            self.answer_cache().clear()  # answers of the old revision can never be found again
            if refresh:
                self._refresh_derived()

    def _interrupted(self) -> bool:
        """Whether an earlier ingest stopped between its first and last revision bump."""
        return bool(self._metadata().get("writing"))

    def _refresh_derived(self) -> None:
        """Rebuild and save the derived index now, so the next search does not pay for it."""
        with self._lock:
            self._derived = self._rebuild_derived_index(self._fingerprint())

    @abstractmethod
    def answer_cache(self) -> ChromaAnswers:
        """Return the collection's answer cache (ChromaStore's)."""

    @abstractmethod
    def _fingerprint(self) -> str: ...

    @abstractmethod
    def _metadata(self) -> dict[str, Any]: ...

    @abstractmethod
    def _rebuild_derived_index(self, revision: str) -> DerivedIndex: ...

    def _lookup(self) -> Lookup:
        """Return the chunk collection, as deciding a document's fate reads it."""
        return ChromaLookup(self._chunks)

    def _begin_writes(self) -> None:
        """Bump the revision, marked as writing: a search during the writes rebuilds after."""
        self._bump(refresh=False, writing=True)

    def _end_writes(self) -> None:
        """Bump the revision again, and rebuild the derived index now."""
        self._bump()

    def _nothing_written(self) -> None:
        """Bump an ingest a crash left marked as writing (an index built mid-write is stale)."""
        if self._interrupted():
            self._bump()

    def delete(self, source: str, owner: str = PUBLIC) -> int:
        """Remove one owner's source and its sections; return how many chunks went."""
        with self._writing():
            ids = self._chunks.get(where=of_source(source, owner), include=[])["ids"]
            if ids:
                self._chunks.delete(ids=ids)
                self._drop_sections(source, owner)
                self._bump()
        return len(ids)

    def _drop_sections(self, source: str, owner: str) -> None:
        """Remove a source's sections (the small-to-big parents)."""
        ids = self._parents.get(where=of_source(source, owner), include=[])["ids"]
        if ids:
            self._parents.delete(ids=ids)

    def _remove_moved(self, item: Prepared, report: IngestReport) -> None:
        """Remove the copies of a written file left at paths that no longer exist."""
        for old, ids in sorted(item.moved_from.items()):
            self._chunks.delete(ids=ids)
            report.chunks_removed += len(ids)
            owner = item.access[OWNER]
            if not self._chunks.get(where=of_source(old, owner), include=[], limit=1)["ids"]:
                self._drop_sections(old, owner)  # none of the old path's chunks is left
            report.moved.append(f"{old} -> {item.source}")

    def _write(self, item: Prepared, vectors: dict[str, list[float]], report: IngestReport) -> None:
        """Add new chunks first, then remove stale ones: a crash leaves nothing lost."""
        fresh = [c for c in item.chunks if c.id not in item.old_ids]
        step = max(1, int(self._client.get_max_batch_size()) // 2)
        for start in range(0, len(fresh), step):
            batch = fresh[start : start + step]
            self._chunks.upsert(
                ids=[str(c.id) for c in batch],
                embeddings=[vectors[str(c.id)] for c in batch],
                documents=[c.page_content for c in batch],
                metadatas=[stored_metadata(c.metadata) for c in batch],
            )
        if item.sections:
            unique = {s.id: s for s in item.sections}
            self._parents.upsert(
                ids=list(unique),
                embeddings=[[0.0] for _ in unique],
                documents=[s.text for s in unique.values()],
                metadatas=[{"source": s.source, **item.access} for s in unique.values()],
            )
        keep = {str(c.id) for c in item.chunks}
        stale = sorted((item.old_ids | item.restricted) - keep)
        if stale:
            self._chunks.delete(ids=stale)
        where = of_source(item.source, item.access[OWNER])
        old_parents = set(self._parents.get(where=where, include=[])["ids"])
        stale_parents = sorted(old_parents - {s.id for s in item.sections})
        if stale_parents:
            self._parents.delete(ids=stale_parents)
        report.chunks_added += len(fresh)
        report.chunks_removed += len(stale)
        self._remove_moved(item, report)


class ChromaLookup:
    """What prepare reads, from a Chroma collection of chunks (preparing.Lookup)."""

    def __init__(self, chunks: Any) -> None:
        self._chunks = chunks

    def chunks_of(self, source: str, owner: str) -> Stored:
        """Return one source's stored chunks with their metadata."""
        return self._found(of_source(source, owner))

    def chunks_with_hash(self, file_hash: str, owner: str) -> Stored:
        """Return the owner's stored chunks whose content has this hash."""
        return self._found({"$and": [{"file_hash": file_hash}, {OWNER: owner}]})

    def _found(self, where: dict[str, Any]) -> Stored:
        got = self._chunks.get(where=where, include=["metadatas"])
        return [(cid, dict(m or {})) for cid, m in zip(got["ids"], got["metadatas"], strict=True)]


def create_collection(client: Any, collection: str, spec: str) -> Any:
    """Create a collection and its sections' one; one another process just made is used as is."""
    try:
        made = client.get_or_create_collection(
            collection,
            embedding_function=None,
            metadata={
                "embedding_model": spec,
                "revision": 0,
                TOKEN: secrets.token_hex(8),
                ACCESS_CONTROL: 1,
                ENTITIES: VERSION,
            },
            configuration={"hnsw": {"space": "cosine"}},
        )
        client.get_or_create_collection(f"{collection}.parents", embedding_function=None)
    except Exception as exc:
        raise KnowledgeBaseError(f"cannot create collection {collection!r}: {exc}") from exc
    return made
