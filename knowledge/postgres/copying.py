"""Copy a collection from another store into PostgreSQL, vectors and all: nothing is embedded again.

Chunks are read in pages (KnowledgeStore.stored): once to count each document's chunks (a source
under its owner), then with their vectors, each document written in one transaction with its
sections as soon as all its chunks have been read (into an empty collection, the vectors are
indexed once at the end: PostgresStore.loading). A document already in the target with the same
chunks and metadata (readers included) is left as it is, so a copy that stopped can run again.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from adaptive_rag.core.access import OWNER, PUBLIC
from adaptive_rag.knowledge.chunking import Section
from adaptive_rag.knowledge.errors import KnowledgeBaseError
from adaptive_rag.knowledge.interface import KnowledgeStore, StoredChunk
from adaptive_rag.knowledge.postgres.store import PostgresStore
from adaptive_rag.knowledge.preparing import stored_metadata
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

Key = tuple[str, str]
"""A document: its source under its owner."""


@dataclass
class CopyReport:
    """What a copy did."""

    copied: int = 0
    """Documents written."""
    unchanged: int = 0
    """Documents the target already held, chunk for chunk."""
    chunks: int = 0
    sections: int = 0
    seconds: float = 0.0
    documents: list[str] = field(default_factory=list)


class NoEmbeddings(Embeddings):
    """The embeddings of a store opened to copy: a copy moves vectors and never makes one."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Refuse: nothing is embedded in a copy."""
        raise KnowledgeBaseError("a copy embeds nothing")

    def embed_query(self, text: str) -> list[float]:
        """Refuse: nothing is embedded in a copy."""
        raise KnowledgeBaseError("a copy embeds nothing")


def vector_size(source: KnowledgeStore) -> int:
    """Return the size of the source's vectors (0 when it holds none)."""
    first = next(iter(source.stored(vectors=True)), None)
    return len(first.vector or []) if first is not None else 0


def copy_collection(
    source: KnowledgeStore,
    target: PostgresStore,
    on_progress: Callable[[CopyReport], None] | None = None,
) -> CopyReport:
    """Copy every document of `source` into `target` (made with the same embedding model)."""
    if getattr(source, "embedding_model", None) != target.embedding_model:
        raise KnowledgeBaseError(
            f"{target.name!r} at {target.location} holds vectors of"
            f" {target.embedding_model!r}, not {getattr(source, 'embedding_model', '?')!r}:"
            " copy into a new collection"
        )
    started = time.perf_counter()
    report = CopyReport()
    sections: dict[Key, list[Section]] = {}
    for sid, text, meta in source.stored_sections():
        key = (str(meta.get("source", "")), str(meta.get(OWNER, PUBLIC)))
        sections.setdefault(key, []).append(Section(sid, text, key[0]))
    sizes = Counter(_key(chunk.metadata) for chunk in source.stored())  # chunks per document
    pending: dict[Key, list[StoredChunk]] = {}
    with target.loading():
        for chunk in source.stored(vectors=True):
            if chunk.vector is None:
                raise KnowledgeBaseError(f"chunk {chunk.id} has no vector to copy")
            key = _key(chunk.metadata)
            held = pending.setdefault(key, [])
            held.append(chunk)
            if len(held) == sizes[key]:  # every chunk of the document read: write it
                _write(target, key, pending.pop(key), sections.get(key, []), report)
                if on_progress is not None:
                    on_progress(report)
        for key in sorted(pending):  # written to the source while it was read
            _write(target, key, pending[key], sections.get(key, []), report)
    report.seconds = time.perf_counter() - started
    return report


def _key(meta: dict[str, Any]) -> Key:
    """Return the document a chunk belongs to: its source under its owner ('' public)."""
    owner = meta.get(OWNER)
    return str(meta.get("source", "")), PUBLIC if owner is None else str(owner)


def _write(
    target: PostgresStore,
    key: Key,
    chunks: list[StoredChunk],
    sections: list[Section],
    report: CopyReport,
) -> None:
    """Write one document unless the target holds exactly these chunks already, readers too."""
    held = dict(target._lookup().chunks_of(*key))
    if held == {c.id: stored_metadata(c.metadata) for c in chunks}:
        report.unchanged += 1
        return
    documents = [
        (Document(page_content=c.text, metadata=c.metadata, id=c.id), list(c.vector or []))
        for c in chunks
    ]
    target.replace_document(key[0], key[1], documents, sections)
    report.copied += 1
    report.chunks += len(chunks)
    report.sections += len(sections)
    report.documents.append(key[0])
