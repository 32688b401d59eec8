"""What an ingest does with each document: unchanged, a duplicate, moved, failed, or to write.

The decision reads the collection (the document's stored chunks, other sources with the same
content and readers) and the document itself; knowledge.ingest embeds and writes what is left.
A source is its name under its owner: another owner's document of the same name is another
source, never replaced by this one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from adaptive_rag.core.access import GROUPS, OWNER
from adaptive_rag.core.text import entities_of
from adaptive_rag.knowledge.chunking import Section, chunk_documents, index_text
from adaptive_rag.knowledge.loading import Given, LoadError, content_hash, load_document
from langchain_core.documents import Document


@dataclass
class IngestReport:
    """What an ingest did, document by document (each listed by its source name)."""

    added: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    moved: list[str] = field(default_factory=list)
    """Copies of an added file at a path that no longer exists, removed: "old -> new"."""
    failed: list[str] = field(default_factory=list)
    """"name: reason" for each document that could not be read or ingested."""
    chunks_added: int = 0
    chunks_removed: int = 0
    outcomes: list[tuple[str, str, str]] = field(default_factory=list)
    """(name, what happened, why) per document, in the order given: added, replaced, unchanged,
    duplicate or failed, the why for the last two."""

    def record(self, name: str, status: str, reason: str = "", line: str = "") -> None:
        """Note what happened to one document, in its list and in `outcomes`.

        `line` is a failure as its list shows it, when the reason names a part of the document
        ("bad.jsonl:2: not JSON"); else "name: reason".
        """
        lists = {"added": self.added, "replaced": self.replaced, "unchanged": self.unchanged}
        if status == "failed":
            self.failed.append(line or f"{name}: {reason}")
        elif status == "duplicate":
            self.duplicates.append(f"{name} ({reason})")
        else:
            lists[status].append(name)
        self.outcomes.append((name, status, reason))


@dataclass
class Prepared:
    """A document read and chunked, waiting to be embedded and written."""

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


Stored = list[tuple[str, dict[str, Any]]]
"""Stored chunks as (id, metadata) pairs."""


class Lookup(Protocol):
    """What deciding a document's fate reads from a store."""

    def chunks_of(self, source: str, owner: str) -> Stored:
        """Return one source's stored chunks (its name under its owner)."""
        ...

    def chunks_with_hash(self, file_hash: str, owner: str) -> Stored:
        """Return the owner's stored chunks of any source whose content has this hash."""
        ...


def prepare(
    store: Lookup,
    doc: Given,
    report: IngestReport,
    hashes: dict[str, str],
    access: dict[str, Any],
    names: set[str],
    machine: str | None,
) -> Prepared | None:
    """Read and chunk a document unless unchanged or a duplicate; record failures by name.

    `store` is read for the chunks already stored. `machine` is None for documents given in
    memory; for files, the machine that reads them ('' for a store on this machine's disk): a
    stored copy whose file that machine ingested and no longer holds was moved.
    """
    source = doc.name
    if not source.strip():
        report.record("(no name)", "failed", "a document needs a name, as a file has its path")
        return None
    if source in names:
        report.record(source, "failed", "given more than once in one ingest")
        return None
    names.add(source)
    file_hash = content_hash(doc)
    existing = store.chunks_of(source, access[OWNER])
    metas = [m for _, m in existing]
    # chunks readable by others than now asked are written again, never kept
    old_ids = {cid for cid, m in existing if same_access(m, access)}
    stale_access = {cid for cid, _ in existing} - old_ids
    if old_ids and not stale_access and all(m.get("file_hash") == file_hash for m in metas):
        expected = {m.get("file_chunks") for m in metas}
        if expected in ({None}, {len(old_ids)}):  # every chunk is there (a crash may not)
            report.record(source, "unchanged")
            hashes.setdefault(file_hash, source)
            return None
    twins, twins_on = (
        ({}, {}) if file_hash in hashes else _sources_with_hash(store, file_hash, source, access)
    )
    # a twin whose file is gone was moved or renamed: this file replaces it
    kept = (t for t in sorted(twins) if machine is None or not _gone(t, twins_on[t], machine))
    twin = hashes.get(file_hash) or next(kept, "")
    if twin:
        report.record(source, "duplicate", f"same content as {twin}")
        return None
    hashes[file_hash] = source
    try:
        docs = load_document(doc)
    except LoadError as exc:
        message = str(exc)
        report.record(source, "failed", message.removeprefix(f"{source}: "), line=message)
        return None
    chunks, sections = chunk_documents(docs, source, owner=access[OWNER])
    for chunk in chunks:
        chunk.metadata.pop(GROUPS, None)  # who may read is the ingest's to say, not the file's
        chunk.metadata.update(access, file_hash=file_hash, file_chunks=len(chunks))
        if machine:  # on a shared server, a path means something only where it was read
            chunk.metadata[INGESTED_ON] = machine
        # the graph's entities, from the chunk's own words (not its document's fields)
        chunk.metadata["entities"] = entities_of(index_text(chunk, described=False))
    report.record(source, "replaced" if existing else "added")
    return Prepared(source, file_hash, chunks, sections, old_ids, access, stale_access, twins)


Flat = str | int | float | bool | list[str]
"""A metadata value as every store keeps it."""


def stored_metadata(meta: dict[str, Any]) -> dict[str, Flat]:
    """Return a chunk's metadata as stores keep it: scalars and lists of text, the rest as text.

    Empty values are dropped. Every store writes this form, so a chunk reads back the same from
    each, and a copy from one store to another compares equal.
    """
    flat: dict[str, Flat] = {}
    for key, value in meta.items():
        if value is None or value == []:
            continue
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            flat[key] = value
        else:
            flat[key] = value if isinstance(value, str | int | float | bool) else str(value)
    return flat


def _sources_with_hash(
    store: Lookup, file_hash: str, source: str, access: dict[str, Any]
) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Return the other sources with this content and readers, with their chunk ids.

    Also where each was ingested ("" when not recorded).
    """
    twins: dict[str, list[str]] = {}
    machines: dict[str, str] = {}
    for cid, meta in store.chunks_with_hash(file_hash, access[OWNER]):
        if meta and same_access(meta, access) and meta.get("source") != source:
            name = str(meta.get("source"))
            twins.setdefault(name, []).append(cid)
            machines[name] = str(meta.get(INGESTED_ON) or "")
    return twins, machines


INGESTED_ON = "ingested_on"
"""Chunk metadata in a shared store: the id of the machine whose file an ingest read."""


def _gone(source: str, recorded: str, machine: str) -> bool:
    """Whether a stored source names a file this machine ingested that is no longer on its disk.

    A path another machine ingested (`recorded`, its id) is that machine's, never gone here; a
    copy from before machines were recorded counts as this machine's.
    """
    if recorded and recorded != machine:
        return False
    path = Path(source)
    return path.is_absolute() and not path.exists()


def same_access(meta: dict[str, Any], access: dict[str, Any]) -> bool:
    """Whether a stored chunk is readable by exactly the readers `access` names."""
    return meta.get(OWNER) == access[OWNER] and list(meta.get(GROUPS) or []) == list(
        access.get(GROUPS) or []
    )
