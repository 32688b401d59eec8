"""The knowledge base in PostgreSQL with pgvector (KNOWLEDGE_URI): a KnowledgeStore.

Chunks, vectors, BM25 postings, the entity graph, facet values, sections, the revision and the
answer cache all live in the database (knowledge.postgres.schema), so any number of workers on
any number of machines share one knowledge base and derive nothing: a write is visible to every
search as soon as its transaction commits.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from adaptive_rag.core.access import GROUPS, OWNER, PUBLIC, Reader
from adaptive_rag.core.environment import default_collection
from adaptive_rag.knowledge.data_folder import machine_id, user_data_dir
from adaptive_rag.knowledge.embeddings import load_embeddings, resolve_embeddings_spec
from adaptive_rag.knowledge.errors import KnowledgeBaseError
from adaptive_rag.knowledge.interface import KnowledgeStore, StoredChunk
from adaptive_rag.knowledge.postgres.answers import PostgresAnswers
from adaptive_rag.knowledge.postgres.database import Database, database
from adaptive_rag.knowledge.postgres.locking import PostgresLocking
from adaptive_rag.knowledge.postgres.schema import (
    REGISTRY,
    Tables,
    create_collection,
    ensure_registry,
    parse_vector,
    readable,
)
from adaptive_rag.knowledge.postgres.searching import PostgresSearching
from adaptive_rag.knowledge.postgres.writing import PostgresWrites
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

PAGE = 500
"""Chunks read at a time by `stored`."""


class PostgresStore(PostgresLocking, PostgresWrites, PostgresSearching, KnowledgeStore):
    """One collection in a PostgreSQL database."""

    def __init__(
        self,
        db: Database,
        name: str,
        spec: str,
        embeddings: Embeddings,
        number: int,
        machine: str = "",
    ) -> None:
        self._db = db
        self.name = name
        self.embedding_model = spec
        self._embeddings = embeddings
        self._t = Tables(number)
        self.location = db.where
        self._machine = machine  # this machine (data_folder.machine_id): the database is shared
        self._held = threading.local()
        self.on_wait: Callable[[str], None] = lambda message: None
        """Told, once per write, that this writer waits for another's write."""

    @classmethod
    def open(
        cls,
        uri: str,
        collection: str = "",
        embedding_model: str = "auto",
        create: bool = False,
        embeddings: Embeddings | None = None,
        dims: int = 0,
    ) -> PostgresStore:
        """Open a collection ('' is the default one); with create=True make it.

        Without create, a missing or empty collection is a KnowledgeBaseError that says how to
        fill it, as the Chroma store does. `dims`: the vectors' size when known (a copy); else a
        new collection measures it by embedding a word.
        """
        collection = collection or default_collection()
        spec = resolve_embeddings_spec(embedding_model)
        db = database(uri)
        where = db.where
        try:
            with db.connection() as conn:
                ensure_registry(conn)
                row = _registered(conn, collection)
        except KnowledgeBaseError:
            raise
        except Exception as exc:
            raise KnowledgeBaseError(f"cannot use {where}: {exc}") from exc
        if not create and (row is None or row[2] == 0):
            state = "no knowledge base" if row is None else "the knowledge base"
            empty = "" if row is None else " is empty"
            raise KnowledgeBaseError(
                f"{state} {collection!r} at {where}{empty}: add documents first with"
                f" `adaptive-rag ingest PATH --collection {collection}`"
            )
        if row is not None and row[1] != spec:
            raise KnowledgeBaseError(
                f"collection {collection!r} was built with embeddings {row[1]!r} but {spec!r}"
                f" was asked for: use embedding_model={row[1]!r}, or ingest into a new collection"
            )
        vectors = embeddings or load_embeddings(spec)
        if row is None:
            dims = dims or len(vectors.embed_query("dimensions"))
            with db.connection() as conn:
                create_collection(conn, collection, spec, dims)
                row = _registered(conn, collection)
            if row is None or row[1] != spec:
                raise KnowledgeBaseError(f"cannot create collection {collection!r} at {where}")
        return cls(db, collection, spec, vectors, int(row[0]), machine_id(user_data_dir()))

    # -- reading --------------------------------------------------------------------------

    def _registry(self) -> tuple[int, int, int]:
        """Return the collection's revision, chunk count and token count."""
        rows = self._db.rows(
            f"SELECT revision, chunks, tokens FROM {REGISTRY} WHERE name = %s", (self.name,)
        )
        if not rows:
            raise KnowledgeBaseError(f"collection {self.name!r} is gone from {self.location}")
        return int(rows[0][0]), int(rows[0][1]), int(rows[0][2])

    def count(self) -> int:
        """Return how many chunks the collection holds."""
        return self._registry()[1]

    def revision(self) -> int:
        """Return the write counter every ingest and delete moves (the answer cache's key)."""
        return self._registry()[0]

    def answer_cache(self) -> PostgresAnswers:
        """Return the earlier answers over this collection (in its own table)."""
        return PostgresAnswers(self._db, self._t, self._registry)

    def get(self, ids: list[str]) -> list[Document]:
        """Return chunks by id, in the order asked (missing ids are skipped)."""
        if not ids:
            return []
        rows = self._db.rows(
            f"SELECT id, text, metadata FROM {self._t.chunks} WHERE id = ANY(%s::text[])",
            (ids,),
        )
        by_id = {
            cid: Document(page_content=text, metadata=dict(m), id=cid) for cid, text, m in rows
        }
        return [by_id[i] for i in ids if i in by_id]

    def parents(self, ids: list[str]) -> dict[str, str]:
        """Return parent-section texts by id (small-to-big)."""
        if not ids:
            return {}
        rows = self._db.rows(
            f"SELECT id, text FROM {self._t.parents} WHERE id = ANY(%s::text[])",
            (list(dict.fromkeys(ids)),),
        )
        return {str(pid): str(text) for pid, text in rows}

    def sources(self, reader: Reader | None = None) -> list[dict[str, Any]]:
        """List the sources (a name under its owner) with chunk counts, titles and readers."""
        access, params = readable(reader or Reader(everyone=True))
        rows = self._db.rows(
            f"""SELECT c.source, c.owner, count(*),
                (array_agg(coalesce(c.metadata->>'title', '') ORDER BY c.id))[1],
                (array_agg(array_to_string(c.groups, ',') ORDER BY c.id))[1]
            FROM {self._t.chunks} c WHERE {access} GROUP BY c.source, c.owner
            ORDER BY c.source COLLATE "C", c.owner COLLATE "C" """,
            params,
        )
        return [
            {
                "source": source,
                "chunks": int(chunks),
                "title": title,
                OWNER: PUBLIC if owner is None else owner,
                GROUPS: [g for g in (groups or "").split(",") if g],
            }
            for source, owner, chunks, title, groups in rows
        ]

    def stored(self, vectors: bool = False) -> Iterator[StoredChunk]:
        """Yield every chunk the collection holds, read in pages of PAGE (by id)."""
        column = "embedding::text" if vectors else "NULL"
        after = ""
        while True:
            rows = self._db.rows(
                f"SELECT id, text, metadata, {column} FROM {self._t.chunks}"
                " WHERE id > %s ORDER BY id LIMIT %s",
                (after, PAGE),
            )
            for cid, text, meta, vector in rows:
                found = parse_vector(vector) if vector is not None else None
                yield StoredChunk(str(cid), str(text), dict(meta), found)
            if len(rows) < PAGE:
                return
            after = str(rows[-1][0])

    def stored_sections(self) -> Iterator[tuple[str, str, dict[str, Any]]]:
        """Yield every whole section: id, text, and its source and owner."""
        rows = self._db.rows(f"SELECT id, text, source, owner FROM {self._t.parents} ORDER BY id")
        for pid, text, source, owner in rows:
            yield str(pid), str(text), {"source": source, OWNER: owner}


def _registered(conn: Any, name: str) -> tuple[Any, ...] | None:
    """Return a collection's number, embedding model and chunk count, or None."""
    row = conn.execute(
        f"SELECT number, embedding_model, chunks FROM {REGISTRY} WHERE name = %s", (name,)
    ).fetchone()
    return None if row is None else tuple(row)


if TYPE_CHECKING:  # mypy: every method of the interface is implemented (none left abstract)
    _implements: type[KnowledgeStore] = PostgresStore
