"""Ingestion: read, chunk, embed and write documents into a knowledge base, resumably, in groups.

Files and documents given in memory (text, or a file's bytes) take one path: a file is read into
a FileDocument first. Deleting a source's chunks is here too: both are the knowledge base's
writes, and each holds the collection's write lock from start to end (KnowledgeBase._writing).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from typing import Any

from adaptive_rag.core.access import OWNER, PUBLIC, access_metadata
from adaptive_rag.knowledge.chunking import index_text
from adaptive_rag.knowledge.clients import chroma_metadata
from adaptive_rag.knowledge.keyword import KeywordIndex
from adaptive_rag.knowledge.loading import Given, Unreadable, read_files
from adaptive_rag.knowledge.preparing import IngestReport, Prepared, of_source, prepare
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

EMBED_BATCH = 32


@dataclass(frozen=True)
class Progress:
    """How far an ingest is: documents and chunks written, of those it writes."""

    documents: int
    documents_total: int
    chunks: int
    chunks_total: int


class Ingestion:
    """The writing half of KnowledgeBase: ingesting files and documents, and deleting them."""

    name: str
    _client: Any
    _chunks: Any
    _parents: Any
    _machine: str
    _embeddings: Embeddings
    _lock: threading.Lock
    _keyword: KeywordIndex | None

    def revision(self) -> int:
        """Return the knowledge base's revision (KnowledgeBase reads it from the store)."""
        raise NotImplementedError

    def _bump(self, refresh: bool = True, writing: bool = False) -> None:
        raise NotImplementedError

    def _interrupted(self) -> bool:
        raise NotImplementedError

    def _keyword_refresh(self) -> None:
        raise NotImplementedError

    def _writing(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def _rebuild_keyword_index(self, revision: str) -> KeywordIndex:
        raise NotImplementedError

    def ingest(
        self,
        paths: list[str],
        progress: bool = True,
        owner: str = "",
        groups: tuple[str, ...] = (),
    ) -> IngestReport:
        """Add files and folders; unchanged files are skipped, changed ones replaced.

        `owner` (a user or tenant id, "" for every reader) and `groups` say who may read them
        (core.access); ingesting a file again with other ones rewrites its chunks. A file whose
        content is stored under a path that no longer exists replaces that copy (`moved`).
        """
        return self._ingest_all(read_files(paths), progress, owner, groups, on_disk=True)

    def ingest_documents(
        self,
        documents: Iterable[Given | Unreadable],
        progress: bool = False,
        owner: str = "",
        groups: tuple[str, ...] = (),
        on_progress: Callable[[Progress], None] | None = None,
    ) -> IngestReport:
        """Add documents given in memory (TextDocument, FileDocument) as `ingest` adds files.

        Each is added, replaced, unchanged, a duplicate or failed with its reason, under its
        name; a bad one (or an Unreadable, failed before it came) fails alone. A copy of another
        stored source is a duplicate: with no file to look at, nothing here is judged moved.
        `on_progress` is told the documents and chunks written of those to write, after each
        group.
        """
        return self._ingest_all(documents, progress, owner, groups, False, on_progress)

    def _ingest_all(
        self,
        documents: Iterable[Given | Unreadable],
        progress: bool,
        owner: str,
        groups: tuple[str, ...],
        on_disk: bool,
        on_progress: Callable[[Progress], None] | None = None,
    ) -> IngestReport:
        """Prepare, embed and write documents, holding the write lock from start to end."""
        access = access_metadata(owner, groups)
        machine = self._machine if on_disk else None  # files are read on this machine
        report = IngestReport()
        with self._writing():
            prepared: list[Prepared] = []
            hashes: dict[str, str] = {}  # content hash -> source, for duplicates within this run
            names: set[str] = set()
            for doc in documents:
                if isinstance(doc, Unreadable):
                    report.record(doc.name, "failed", doc.reason)
                    continue
                item = prepare(self._chunks, doc, report, hashes, access, names, machine)
                if item is not None:
                    prepared.append(item)
            if not prepared:
                if self._interrupted():
                    self._bump()
                return report
            self._bump(refresh=False, writing=True)  # a search during the writes rebuilds after
            new_chunks = [c for p in prepared for c in p.chunks if c.id not in p.old_ids]
            done = Progress(0, len(prepared), 0, len(new_chunks))
            if on_progress is not None:
                on_progress(done)
            with self._progress(len(new_chunks), progress) as bar:
                # embed and write a group at a time: a crash loses one group's work
                for group in _groups(prepared, WRITE_GROUP_CHUNKS):
                    fresh = [c for p in group for c in p.chunks if c.id not in p.old_ids]
                    vectors = self._embed(fresh, bar)
                    for item in group:
                        self._write(item, vectors, report)
                    done = replace(
                        done,
                        documents=done.documents + len(group),
                        chunks=done.chunks + len(fresh),
                    )
                    if on_progress is not None:
                        on_progress(done)
            self._bump()
        return report

    def delete(self, source: str, owner: str = PUBLIC) -> int:
        """Remove a source (its name under `owner`, "" public) and its sections; return its chunks.

        Another owner's source of the same name stays.
        """
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

    def _progress(self, total: int, progress: bool) -> Any:
        """Return a progress bar over the chunks to embed (silent for small or quiet runs)."""
        from tqdm import tqdm

        return tqdm(
            total=total,
            desc="Embedding",
            unit="chunk",
            file=sys.stderr,
            disable=not progress or total < EMBED_BATCH,
        )

    def _embed(self, chunks: list[Document], bar: Any) -> dict[str, list[float]]:
        """Embed chunks in batches, advancing the progress bar."""
        vectors: dict[str, list[float]] = {}
        for start in range(0, len(chunks), EMBED_BATCH):
            batch = chunks[start : start + EMBED_BATCH]
            rows = self._embeddings.embed_documents([index_text(c) for c in batch])
            vectors.update({str(c.id): row for c, row in zip(batch, rows, strict=True)})
            bar.update(len(batch))
        return vectors

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
                metadatas=[chroma_metadata(c.metadata) for c in batch],
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


WRITE_GROUP_CHUNKS = 256
"""Chunks embedded before they are written (bounds the work a crash can lose)."""


def _groups(items: list[Prepared], size: int) -> Iterator[list[Prepared]]:
    """Split prepared files into consecutive groups of about `size` new chunks."""
    group: list[Prepared] = []
    count = 0
    for item in items:
        group.append(item)
        count += sum(1 for c in item.chunks if c.id not in item.old_ids)
        if count >= size:
            yield group
            group, count = [], 0
    if group:
        yield group
