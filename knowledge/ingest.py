"""Ingestion: read, chunk, embed and write documents into a knowledge base, resumably, in groups.

Files and documents given in memory (text, or a file's bytes) take one path: a file is read into
a FileDocument first. What is the same in every store is here (deciding each document's fate,
embedding in groups, progress); each store writes a prepared document and deletes a source its
own way (knowledge.chroma.writing, knowledge.postgres.writing), holding the collection's write
lock from start to end (`_writing`).
"""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from typing import Any

from adaptive_rag.core.access import PUBLIC, access_metadata
from adaptive_rag.knowledge.chunking import index_text
from adaptive_rag.knowledge.loading import Given, Unreadable, read_files
from adaptive_rag.knowledge.preparing import IngestReport, Lookup, Prepared, prepare
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


class Ingestion(ABC):
    """The writing half of a store: ingesting files and documents, and deleting them."""

    name: str
    _machine: str
    _embeddings: Embeddings

    @abstractmethod
    def _writing(self) -> AbstractContextManager[None]:
        """Hold the collection's write lock across processes for the block."""

    @abstractmethod
    def _lookup(self) -> Lookup:
        """Return what deciding a document's fate reads from the store."""

    @abstractmethod
    def _begin_writes(self) -> None:
        """Mark the writes about to start (before the first document is written)."""

    @abstractmethod
    def _end_writes(self) -> None:
        """Close the writes (after the last document is written)."""

    @abstractmethod
    def _nothing_written(self) -> None:
        """Finish an ingest that had nothing to write."""

    @abstractmethod
    def _write(self, item: Prepared, vectors: dict[str, list[float]], report: IngestReport) -> None:
        """Write one prepared document and remove what it replaces."""

    @abstractmethod
    def delete(self, source: str, owner: str = PUBLIC) -> int:
        """Remove a source (its name under `owner`, "" public) and its sections; return its chunks.

        Another owner's source of the same name stays.
        """

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
                item = prepare(self._lookup(), doc, report, hashes, access, names, machine)
                if item is not None:
                    prepared.append(item)
            if not prepared:
                self._nothing_written()
                return report
            self._begin_writes()
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
            self._end_writes()
        return report

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
