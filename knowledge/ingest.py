"""Ingestion: read, chunk, embed and write files into a knowledge base, resumably and in groups.

Deleting a file's chunks is here too: both are the knowledge base's writes.
"""

from __future__ import annotations

import hashlib
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adaptive_rag.core.access import GROUPS, OWNER, access_metadata
from adaptive_rag.core.entities import entities_of
from adaptive_rag.knowledge.chunking import Section, chunk_documents, index_text
from adaptive_rag.knowledge.clients import chroma_metadata
from adaptive_rag.knowledge.keyword import KeywordIndex
from adaptive_rag.knowledge.loading import LoadError, iter_files, load_file
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

EMBED_BATCH = 32


@dataclass
class IngestReport:
    """What an ingest did, file by file."""

    added: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    moved: list[str] = field(default_factory=list)
    """Copies of an added file at a path that no longer exists, removed: "old -> new"."""
    failed: list[str] = field(default_factory=list)
    chunks_added: int = 0
    chunks_removed: int = 0


@dataclass
class _Prepared:
    """A file read and chunked, waiting to be embedded and written."""

    source: str
    file_hash: str
    chunks: list[Document]
    sections: list[Section]
    old_ids: set[str]
    """Chunks already stored as asked (same text, same readers): not embedded again."""
    access: dict[str, Any]
    """Who may read the file (core.access metadata)."""
    restricted: set[str] = field(default_factory=set)
    """Stored chunks of this file whose readers change: rewritten, or removed if gone."""
    moved_from: dict[str, list[str]] = field(default_factory=dict)
    """Sources with the same content and readers whose files are gone, with their chunk ids:
    removed once this file is written."""


class Ingestion:
    """The writing half of KnowledgeBase: ingesting files into it and deleting them."""

    name: str
    _client: Any
    _chunks: Any
    _parents: Any
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
        (core.access); ingesting a file again with other ones rewrites its chunks.
        """
        access = access_metadata(owner, groups)
        report = IngestReport()
        prepared: list[_Prepared] = []
        hashes: dict[str, str] = {}  # file hash -> source, for duplicates within this run
        for path in iter_files(paths):
            item = self._prepare(path, report, hashes, access)
            if item is not None:
                prepared.append(item)
        if not prepared:
            if self._interrupted():
                self._bump()
            return report
        self._bump(refresh=False, writing=True)  # a search during the writes rebuilds BM25 after
        new_chunks = [c for p in prepared for c in p.chunks if c.id not in p.old_ids]
        with self._progress(len(new_chunks), progress) as bar:
            # embed and write a group of files at a time: a crash loses one group's work
            for group in _groups(prepared, WRITE_GROUP_CHUNKS):
                fresh = [c for p in group for c in p.chunks if c.id not in p.old_ids]
                vectors = self._embed(fresh, bar)
                for item in group:
                    self._write(item, vectors, report)
        self._bump()
        return report

    def delete(self, source: str) -> int:
        """Remove a source's chunks and sections; return how many chunks went."""
        ids = self._chunks.get(where={"source": source}, include=[])["ids"]
        if ids:
            self._chunks.delete(ids=ids)
            self._drop_sections(source)
            self._bump()
        return len(ids)

    def _drop_sections(self, source: str) -> None:
        """Remove a source's sections (the small-to-big parents)."""
        ids = self._parents.get(where={"source": source}, include=[])["ids"]
        if ids:
            self._parents.delete(ids=ids)

    def _prepare(
        self, path: Path, report: IngestReport, hashes: dict[str, str], access: dict[str, Any]
    ) -> _Prepared | None:
        """Read and chunk a file unless unchanged or a duplicate; record failures by name."""
        source = str(path)
        try:
            file_hash = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError as exc:
            report.failed.append(f"{path}: {exc.strerror or exc}")
            return None
        existing = self._chunks.get(where={"source": source}, include=["metadatas"])
        metas = [m or {} for m in existing["metadatas"]]
        # chunks readable by others than now asked are written again, never kept
        old_ids = {
            cid for cid, m in zip(existing["ids"], metas, strict=True) if _same_access(m, access)
        }
        stale_access = set(existing["ids"]) - old_ids
        if old_ids and not stale_access and all(m.get("file_hash") == file_hash for m in metas):
            expected = {m.get("file_chunks") for m in metas}
            if expected in ({None}, {len(old_ids)}):  # every chunk is there (a crash may not)
                report.unchanged.append(source)
                hashes.setdefault(file_hash, source)
                return None
        twins = {} if file_hash in hashes else self._sources_with_hash(file_hash, source, access)
        # a twin whose file is gone was moved or renamed: this copy replaces it
        twin = hashes.get(file_hash) or next((t for t in sorted(twins) if Path(t).exists()), "")
        if twin:
            report.duplicates.append(f"{source} (same content as {twin})")
            return None
        hashes[file_hash] = source
        try:
            docs = load_file(path)
        except LoadError as exc:
            report.failed.append(str(exc))
            return None
        chunks, sections = chunk_documents(docs, source)
        for chunk in chunks:
            chunk.metadata.pop(GROUPS, None)  # who may read is the ingest's to say, not the file's
            chunk.metadata.update(access, file_hash=file_hash, file_chunks=len(chunks))
            # the graph's entities, from the chunk's own words (not its document's fields)
            chunk.metadata["entities"] = entities_of(index_text(chunk, described=False))
        (report.replaced if existing["ids"] else report.added).append(source)
        return _Prepared(source, file_hash, chunks, sections, old_ids, access, stale_access, twins)

    def _sources_with_hash(
        self, file_hash: str, source: str, access: dict[str, Any]
    ) -> dict[str, list[str]]:
        """Return the other sources with this exact content and readers, with their chunk ids."""
        where = {"$and": [{"file_hash": file_hash}, {OWNER: access[OWNER]}]}
        found = self._chunks.get(where=where, include=["metadatas"])
        twins: dict[str, list[str]] = {}
        for cid, meta in zip(found["ids"], found["metadatas"], strict=True):
            if meta and _same_access(meta, access) and meta.get("source") != source:
                twins.setdefault(str(meta.get("source")), []).append(cid)
        return twins

    def _remove_moved(self, item: _Prepared, report: IngestReport) -> None:
        """Remove the copies of a written file left at paths that no longer exist."""
        for old, ids in sorted(item.moved_from.items()):
            self._chunks.delete(ids=ids)
            report.chunks_removed += len(ids)
            if not self._chunks.get(where={"source": old}, include=[], limit=1)["ids"]:
                self._drop_sections(old)  # none of the old path's chunks is left for any reader
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

    def _write(
        self, item: _Prepared, vectors: dict[str, list[float]], report: IngestReport
    ) -> None:
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
        old_parents = set(self._parents.get(where={"source": item.source}, include=[])["ids"])
        stale_parents = sorted(old_parents - {s.id for s in item.sections})
        if stale_parents:
            self._parents.delete(ids=stale_parents)
        report.chunks_added += len(fresh)
        report.chunks_removed += len(stale)
        self._remove_moved(item, report)


WRITE_GROUP_CHUNKS = 256
"""Chunks embedded before they are written (bounds the work a crash can lose)."""


def _groups(items: list[_Prepared], size: int) -> Iterator[list[_Prepared]]:
    """Split prepared files into consecutive groups of about `size` new chunks."""
    group: list[_Prepared] = []
    count = 0
    for item in items:
        group.append(item)
        count += sum(1 for c in item.chunks if c.id not in item.old_ids)
        if count >= size:
            yield group
            group, count = [], 0
    if group:
        yield group


def _same_access(meta: dict[str, Any], access: dict[str, Any]) -> bool:
    """Whether a stored chunk is readable by exactly the readers `access` names."""
    return meta.get(OWNER) == access[OWNER] and list(meta.get(GROUPS) or []) == list(
        access.get(GROUPS) or []
    )
