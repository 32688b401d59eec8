"""The PostgreSQL store's tables: a registry of collections, and each collection's own tables.

Everything a search needs lives in the database, so a worker derives and keeps nothing:

- `adaptive_rag_collections`: one row per collection: its embedding model and vector size, its
  revision (moved in the transaction of every write), and the chunk and token counts BM25 reads;
- per collection (numbered, so any collection name is safe): its chunks with their metadata,
  readers, vectors (HNSW on cosine) and the order they were written in, which ties rank in as in
  the Chroma store (`kbN_chunks`); their BM25 postings (`kbN_terms`: term, chunk, term frequency,
  chunk length, all in the index) and each term's document frequency (`kbN_df`); their entities
  (`kbN_entities`, the graph) and how many chunks hold each (`kbN_entity_df`); the values of the
  documents' own fields (`kbN_facets`) and how many chunks hold each (`kbN_value_df`, looked up
  by a question's words); the whole sections (`kbN_parents`) and the answer cache
  (`kbN_answers`). Postings, entities and facets go with their chunk (ON DELETE CASCADE).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adaptive_rag.knowledge.errors import KnowledgeBaseError

REGISTRY = "adaptive_rag_collections"
LOCK_SPACE = 0x41524147
"""The first key of this store's advisory locks (the second: the collection's number)."""
HNSW_M = 16
HNSW_EF_CONSTRUCTION = 100
"""HNSW build settings, as Chroma builds its index by default."""


@dataclass(frozen=True)
class Tables:
    """A collection's table names."""

    number: int

    def __getattr__(self, part: str) -> str:
        if part.startswith("_"):
            raise AttributeError(part)
        return f"kb{self.number}_{part}"


SEARCHED = ("chunks", "terms", "df", "entities", "entity_df", "facets", "value_df")
"""A collection's tables that searches read (and whose planner statistics matter)."""
PGVECTOR = (0, 8)
"""The oldest pgvector whose filtered HNSW scans return as many results as asked."""
MAX_DIMS = 2000
"""The most dimensions pgvector's HNSW index takes for a `vector` column."""


def ensure_registry(conn: Any) -> None:
    """Create pgvector and the registry if missing (one process at a time).

    Where both are there already, nothing is created or locked: a role that may only read opens
    the store. KnowledgeBaseError when pgvector is missing, cannot be created, or is older than
    PGVECTOR.
    """
    import psycopg

    version = _version(conn)
    if version is not None and _registry_exists(conn):
        _check_version(version)
        return
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s, 0)", (LOCK_SPACE,))
        try:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        except psycopg.Error as exc:
            raise KnowledgeBaseError(
                f"the database has no pgvector, or this user may not create it ({exc}):"
                " install pgvector 0.8 or later on the server and run `CREATE EXTENSION vector`"
                " once as its owner"
            ) from exc
        _check_version(_version(conn) or "0.0")
        conn.execute(
            f"""CREATE TABLE IF NOT EXISTS {REGISTRY} (
                name text PRIMARY KEY,
                number serial UNIQUE,
                embedding_model text NOT NULL,
                dims integer NOT NULL,
                revision bigint NOT NULL DEFAULT 0,
                chunks bigint NOT NULL DEFAULT 0,
                tokens bigint NOT NULL DEFAULT 0
            )"""
        )


def _version(conn: Any) -> str | None:
    """Return the installed pgvector's version (None: not installed)."""
    found = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
    return None if found is None else str(found[0])


def _registry_exists(conn: Any) -> bool:
    return conn.execute("SELECT to_regclass(%s)", (REGISTRY,)).fetchone()[0] is not None


def _check_version(version: str) -> None:
    """KnowledgeBaseError when the installed pgvector's `version` is older than PGVECTOR."""
    if tuple(int(p) for p in version.split(".")[:2]) < PGVECTOR:
        raise KnowledgeBaseError(
            f"pgvector {version} is too old: filtered searches need 0.8 or later"
            " (`ALTER EXTENSION vector UPDATE` after installing it)"
        )


def create_collection(conn: Any, name: str, spec: str, dims: int) -> None:
    """Register a collection and create its tables; one another process just made is kept."""
    if dims > MAX_DIMS:
        raise KnowledgeBaseError(
            f"{spec} makes vectors of {dims} dimensions; pgvector indexes at most {MAX_DIMS}:"
            " use an embedding model with fewer (or one that can shorten its vectors)"
        )
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s, 0)", (LOCK_SPACE,))
        row = conn.execute(
            f"INSERT INTO {REGISTRY} (name, embedding_model, dims) VALUES (%s, %s, %s)"
            " ON CONFLICT (name) DO NOTHING RETURNING number",
            (name, spec, dims),
        ).fetchone()
        if row is None:
            return
        t = Tables(int(row[0]))
        for statement in _tables(t, dims):
            conn.execute(statement)


def _tables(t: Tables, dims: int) -> list[str]:
    """Return the statements that create one collection's tables and indexes."""
    return [
        f"""CREATE TABLE {t.chunks} (
            id text PRIMARY KEY,
            seq bigint GENERATED ALWAYS AS IDENTITY,
            source text NOT NULL,
            owner text,
            groups text[] NOT NULL DEFAULT '{{}}',
            file_hash text,
            text text NOT NULL,
            metadata jsonb NOT NULL,
            embedding vector({dims}) NOT NULL,
            length integer NOT NULL,
            entity_count integer NOT NULL
        )""",
        f"ALTER TABLE {t.chunks} ALTER COLUMN embedding SET STORAGE MAIN",  # in the row
        f"CREATE INDEX ON {t.chunks} (owner, source)",
        f"CREATE INDEX ON {t.chunks} (owner, file_hash)",
        f"CREATE INDEX ON {t.chunks} USING gin (groups)",
        vector_index(t),
        f"""CREATE TABLE {t.terms} (
            term text NOT NULL,
            chunk_id text NOT NULL REFERENCES {t.chunks} (id) ON DELETE CASCADE,
            tf integer NOT NULL,
            length integer NOT NULL,
            PRIMARY KEY (term, chunk_id) INCLUDE (tf, length)
        )""",
        f"CREATE INDEX ON {t.terms} (chunk_id)",
        f"CREATE TABLE {t.df} (term text PRIMARY KEY, df integer NOT NULL)",
        f"""CREATE TABLE {t.entities} (
            entity text NOT NULL,
            chunk_id text NOT NULL REFERENCES {t.chunks} (id) ON DELETE CASCADE,
            PRIMARY KEY (entity, chunk_id)
        )""",
        f"CREATE INDEX ON {t.entities} (chunk_id)",
        f"CREATE TABLE {t.entity_df} (entity text PRIMARY KEY, df integer NOT NULL)",
        f"""CREATE TABLE {t.facets} (
            field text NOT NULL,
            value text NOT NULL,
            chunk_id text NOT NULL REFERENCES {t.chunks} (id) ON DELETE CASCADE,
            PRIMARY KEY (field, value, chunk_id)
        )""",
        f"""CREATE TABLE {t.value_df} (
            field text NOT NULL,
            value text NOT NULL,
            lookup text NOT NULL,
            df integer NOT NULL,
            PRIMARY KEY (field, value)
        )""",
        f"CREATE INDEX ON {t.value_df} (lookup)",
        f"CREATE INDEX ON {t.facets} (chunk_id)",
        f"""CREATE TABLE {t.parents} (
            id text PRIMARY KEY,
            source text NOT NULL,
            owner text,
            text text NOT NULL
        )""",
        f"CREATE INDEX ON {t.parents} (owner, source)",
        f"""CREATE TABLE {t.answers} (
            key text PRIMARY KEY,
            revision bigint NOT NULL,
            expires double precision NOT NULL,
            question text NOT NULL,
            output jsonb NOT NULL
        )""",
    ]


def vector_index(t: Tables) -> str:
    """Return the statement that builds a collection's HNSW index if it is missing."""
    return (
        f"CREATE INDEX IF NOT EXISTS {t.chunks}_embedding_idx ON {t.chunks}"
        f" USING hnsw (embedding vector_cosine_ops)"
        f" WITH (m = {HNSW_M}, ef_construction = {HNSW_EF_CONSTRUCTION})"
    )


def readable(reader: Any, alias: str = "c") -> tuple[str, dict[str, Any]]:
    """Return the SQL condition (and its parameters) of the chunks a reader may read.

    The same rule as core.access.Reader.may_read: public, the reader's own, or shared with one of
    their groups; a chunk with no owner is never read.
    """
    if reader.everyone:
        return "TRUE", {}
    clauses, params = [f"{alias}.owner = ''"], {}
    if reader.user:
        clauses.append(f"{alias}.owner = %(reader_user)s")
        params["reader_user"] = reader.user
    if reader.named_groups():
        clauses.append(f"{alias}.groups && %(reader_groups)s::text[]")
        params["reader_groups"] = sorted(reader.named_groups())
    return "(" + " OR ".join(clauses) + ")", params


def to_json(value: dict[str, Any]) -> str:
    """Return metadata or a filter as JSON text, for a jsonb parameter or column."""
    import json

    return json.dumps(value, ensure_ascii=False)


def vector_literal(vector: list[float]) -> str:
    """Return a vector as pgvector's text form."""
    return "[" + ",".join(repr(float(x)) for x in vector) + "]"


def parse_vector(text: str) -> list[float]:
    """Read pgvector's text form."""
    return [float(x) for x in text.strip("[]").split(",")] if text.strip("[]") else []
