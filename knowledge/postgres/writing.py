"""How the PostgreSQL store writes: each document in one transaction, with the revision.

A document's new chunks (with their postings, entities and facet values), its sections, the
removal of what it replaces and of the copies it moved from, the collection's counts, the revision
and the answer cache's stale entries: one transaction, so a search in any worker sees all of it or
none. Writers to a collection take turns under an advisory lock held for the whole ingest (it dies
with the writer's connection).
"""

from __future__ import annotations

from abc import abstractmethod
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from adaptive_rag.core.access import GROUPS, OWNER, PUBLIC
from adaptive_rag.knowledge.chunking import Section, index_text
from adaptive_rag.knowledge.facets import descriptive, start_key
from adaptive_rag.knowledge.ingest import Ingestion
from adaptive_rag.knowledge.postgres.bm25 import term_key
from adaptive_rag.knowledge.postgres.database import Database
from adaptive_rag.knowledge.postgres.schema import (
    REGISTRY,
    SEARCHED,
    Tables,
    to_json,
    vector_literal,
)
from adaptive_rag.knowledge.preparing import IngestReport, Lookup, Prepared, Stored, stored_metadata
from adaptive_rag.knowledge.tokenizing import tokenize
from langchain_core.documents import Document

COUNTED = (
    ("terms", ("term",), "df", ()),
    ("entities", ("entity",), "entity_df", ()),
    ("facets", ("field", "value"), "value_df", ("lookup",)),
)
"""Each table of (key, chunk) rows, its key, the table counting the chunks holding each key
(moved in the same transaction as the rows), and what that table keeps beside each key."""
ANALYZE_SHARE = 0.1
"""A write that adds or removes this share of a collection's chunks refreshes its statistics."""


class PostgresLookup:
    """What prepare reads, from the chunk table (preparing.Lookup)."""

    def __init__(self, db: Database, tables: Tables) -> None:
        self._db, self._t = db, tables

    def chunks_of(self, source: str, owner: str) -> Stored:
        """Return one source's stored chunks with their metadata."""
        return self._found("source = %s AND owner = %s", (source, owner))

    def chunks_with_hash(self, file_hash: str, owner: str) -> Stored:
        """Return the owner's stored chunks whose content has this hash."""
        return self._found("file_hash = %s AND owner = %s", (file_hash, owner))

    def _found(self, condition: str, params: tuple[str, str]) -> Stored:
        rows = self._db.rows(
            f"SELECT id, metadata FROM {self._t.chunks} WHERE {condition} ORDER BY id", params
        )
        return [(str(cid), dict(meta)) for cid, meta in rows]


class PostgresWrites(Ingestion):
    """The PostgreSQL store's writes (PostgresStore provides the pool and the tables)."""

    _db: Database
    _t: Tables

    @abstractmethod
    def _writing(self) -> Any: ...

    def _lookup(self) -> Lookup:
        """Return the chunk table, as deciding a document's fate reads it."""
        return PostgresLookup(self._db, self._t)

    def _begin_writes(self) -> None:
        """Nothing to mark: each document's transaction moves the revision."""

    def _end_writes(self) -> None:
        """Nothing to close: every document was committed whole."""

    def _nothing_written(self) -> None:
        """Nothing to finish: an interrupted ingest left whole documents only."""

    def _write(self, item: Prepared, vectors: dict[str, list[float]], report: IngestReport) -> None:
        """Write one document in one transaction: new chunks first, then what they replace."""
        fresh = [c for c in item.chunks if c.id not in item.old_ids]
        keep = {str(c.id) for c in item.chunks}
        stale = sorted((item.old_ids | item.restricted) - keep)
        owner = item.access[OWNER]
        with self._transaction() as conn:
            removed = self._remove(conn, [str(c.id) for c in fresh])  # rewritten by id
            added = self.load(conn, ((c, vectors[str(c.id)]) for c in fresh))
            self._put_sections(conn, item.sections, item.access)
            removed += self._remove(conn, stale)
            conn.execute(
                f"DELETE FROM {self._t.parents} WHERE source = %s AND owner = %s"
                " AND NOT (id = ANY(%s::text[]))",
                (item.source, owner, [s.id for s in item.sections]),
            )
            for old, ids in sorted(item.moved_from.items()):
                removed += self._remove(conn, ids)
                report.chunks_removed += len(ids)
                self._drop_sections_if_empty(conn, old, owner)
                report.moved.append(f"{old} -> {item.source}")
            self._count(conn, added, removed)
        report.chunks_added += len(fresh)
        report.chunks_removed += len(stale)

    def delete(self, source: str, owner: str = PUBLIC) -> int:
        """Remove one owner's source and its sections, in one transaction; return its chunks."""
        with self._writing(), self._transaction() as conn:
            ids = self._ids_of(conn, source, owner)
            if not ids:
                return 0
            removed = self._remove(conn, ids)
            self._drop_sections(conn, source, owner)
            self._count(conn, [], removed)
        return len(ids)

    def replace_document(
        self,
        source: str,
        owner: str,
        chunks: list[tuple[Document, list[float]]],
        sections: list[Section],
    ) -> None:
        """Write a document as given, vectors and all (a copy), replacing it in one transaction."""
        with self._transaction() as conn:
            ids = self._ids_of(conn, source, owner)
            removed = self._remove(conn, sorted(set(ids) | {str(c.id) for c, _ in chunks}))
            self._drop_sections(conn, source, owner)
            added = self.load(conn, chunks)
            self._put_sections(conn, sections, {OWNER: owner})
            self._count(conn, added, removed)

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        """Yield a connection in a transaction that first takes the collection's registry row.

        Taking the row first orders every write transaction on the collection, so two never
        interleave their counts, and none deadlocks on another's rows.
        """
        with self._db.connection() as conn, conn.transaction():
            conn.execute(f"SELECT 1 FROM {REGISTRY} WHERE name = %s FOR UPDATE", (self.name,))
            yield conn

    def _remove(self, conn: Any, ids: list[str]) -> list[int]:
        """Delete chunks by id (their postings, entities and facets go too); return lengths.

        Each of their terms, entities and values is held by one chunk fewer.
        """
        if not ids:
            return []
        t = self._t
        for postings, keys, counts, _ in COUNTED:
            key = ", ".join(keys)
            match = " AND ".join(f"d.{k} = g.{k}" for k in keys)
            conn.execute(
                f"""WITH gone AS (DELETE FROM {getattr(t, postings)}
                    WHERE chunk_id = ANY(%s::text[]) RETURNING {key})
                UPDATE {getattr(t, counts)} d SET df = d.df - g.n
                FROM (SELECT {key}, count(*) AS n FROM gone GROUP BY {key}) g WHERE {match}""",
                (ids,),
            )
        rows = conn.execute(
            f"DELETE FROM {self._t.chunks} WHERE id = ANY(%s::text[]) RETURNING length", (ids,)
        ).fetchall()
        return [int(r[0]) for r in rows]

    def load(self, conn: Any, chunks: Iterable[tuple[Document, list[float]]]) -> list[int]:
        """Copy chunks (each with its vector) and what search reads of them; return lengths."""
        t = self._t
        rows: list[tuple[Any, ...]] = []
        terms: list[tuple[Any, ...]] = []
        entities: list[tuple[Any, ...]] = []
        facets: list[tuple[Any, ...]] = []
        lengths: list[int] = []
        for chunk, vector in chunks:
            cid, meta = str(chunk.id), stored_metadata(chunk.metadata)
            text = index_text(Document(chunk.page_content, metadata=meta))
            counts = Counter(term_key(word) for word in tokenize(text))
            length = sum(counts.values())
            names = list(dict.fromkeys(chunk.metadata.get("entities") or []))
            groups = meta.get(GROUPS) or []
            owner = meta.get(OWNER)
            rows.append(
                (cid, str(meta.get("source", "")), owner, groups, meta.get("file_hash"))
                + (chunk.page_content, to_json(meta), vector_literal(vector), length, len(names))
            )
            terms.extend((term, cid, tf, length) for term, tf in counts.items())
            entities.extend((name, cid) for name in names)
            pairs = dict.fromkeys(descriptive(meta))
            facets.extend((field, value, start_key(value), cid) for field, value in pairs)
            lengths.append(length)
        columns = "id, source, owner, groups, file_hash, text, metadata, embedding, length"
        _copy(conn, f"{t.chunks} ({columns}, entity_count)", rows)
        _copy(conn, f"{t.terms} (term, chunk_id, tf, length)", terms)
        _copy(conn, f"{t.entities} (entity, chunk_id)", entities)
        _copy(conn, f"{t.facets} (field, value, chunk_id)", [(f, v, c) for f, v, _, c in facets])
        held: dict[str, Counter[tuple[str, ...]]] = {  # chunks holding each: one row per chunk
            "df": Counter((term,) for term, *_ in terms),
            "entity_df": Counter((name,) for name, _ in entities),
            "value_df": Counter((field, value, lookup) for field, value, lookup, _ in facets),
        }
        for _, keys, table, beside in COUNTED:
            if held[table]:
                _add_counts(conn, getattr(t, table), keys, beside, held[table])
        return lengths

    def _put_sections(self, conn: Any, sections: list[Section], access: dict[str, Any]) -> None:
        """Write a document's whole sections (small-to-big), replacing any of the same id."""
        unique = {s.id: s for s in sections}
        if not unique:
            return
        with conn.cursor() as cur:
            cur.executemany(
                f"INSERT INTO {self._t.parents} (id, source, owner, text) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (id) DO UPDATE SET source = excluded.source,"
                " owner = excluded.owner, text = excluded.text",
                [(s.id, s.source, access[OWNER], s.text) for s in unique.values()],
            )

    def _ids_of(self, conn: Any, source: str, owner: str) -> list[str]:
        """Return the ids of one owner's source's chunks."""
        rows = conn.execute(
            f"SELECT id FROM {self._t.chunks} WHERE source = %s AND owner = %s", (source, owner)
        )
        return [str(r[0]) for r in rows]

    def _drop_sections(self, conn: Any, source: str, owner: str) -> None:
        """Remove one owner's source's sections."""
        conn.execute(
            f"DELETE FROM {self._t.parents} WHERE source = %s AND owner = %s", (source, owner)
        )

    def _drop_sections_if_empty(self, conn: Any, source: str, owner: str) -> None:
        """Remove a source's sections once none of its chunks is left."""
        conn.execute(
            f"DELETE FROM {self._t.parents} p WHERE p.source = %s AND p.owner = %s AND NOT EXISTS"
            f" (SELECT 1 FROM {self._t.chunks} c WHERE c.source = %s AND c.owner = %s)",
            (source, owner, source, owner),
        )

    def _count(self, conn: Any, added: list[int], removed: list[int]) -> None:
        """Move the revision and the counts BM25 reads (chunk lengths added and removed).

        The answers of older revisions are forgotten: they can never be found again. A write
        that changes a tenth of the collection or more also refreshes the planner's statistics,
        so a collection loaded in bulk is searched through its indexes at once.
        """
        tokens = sum(added) - sum(removed)
        revision, chunks = conn.execute(
            f"UPDATE {REGISTRY} SET revision = revision + 1, chunks = chunks + %s,"
            " tokens = tokens + %s WHERE name = %s RETURNING revision, chunks",
            (len(added) - len(removed), tokens, self.name),
        ).fetchone()
        conn.execute(f"DELETE FROM {self._t.answers} WHERE revision < %s", (int(revision),))
        if len(added) + len(removed) >= ANALYZE_SHARE * max(int(chunks), 1):
            for part in SEARCHED:
                conn.execute(f"ANALYZE {getattr(self._t, part)}")


def _add_counts(
    conn: Any,
    table: str,
    keys: tuple[str, ...],
    beside: tuple[str, ...],
    held: Counter[tuple[str, ...]],
) -> None:
    """Add to the chunks counted per key (each counted tuple: the key, then `beside`)."""
    columns = [*keys, *beside]
    arrays = [list(column) for column in zip(*held, strict=True)]
    texts = ", ".join(["%s::text[]"] * len(columns))
    conn.execute(
        f"INSERT INTO {table} ({', '.join(columns)}, df) SELECT * FROM unnest({texts}, %s::int[])"
        f" ON CONFLICT ({', '.join(keys)}) DO UPDATE SET df = {table}.df + excluded.df",
        (*arrays, list(held.values())),
    )


def _copy(conn: Any, target: str, rows: list[tuple[Any, ...]]) -> None:
    """Copy rows into a table (COPY: the fast way in)."""
    if not rows:
        return
    with conn.cursor() as cur, cur.copy(f"COPY {target} FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
