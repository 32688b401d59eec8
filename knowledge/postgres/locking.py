"""Writers to a PostgreSQL collection take turns: an advisory lock in the database.

Every worker on every machine that shares the database waits for the one writing; the lock dies
with the connection of a writer that dies. A load into an empty collection builds the vectors'
HNSW index once, at its end.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from adaptive_rag.core.environment import env_seconds
from adaptive_rag.knowledge.errors import KnowledgeBaseBusyError
from adaptive_rag.knowledge.postgres.database import Database
from adaptive_rag.knowledge.postgres.schema import LOCK_SPACE, SEARCHED, Tables, vector_index

WRITE_WAIT = 900.0
"""Seconds a writer waits for another's write to the same collection (ADAPTIVE_RAG_WRITE_WAIT)."""
MEMORY = "maintenance_work_mem"
BUILD_MEMORY_KB = 1024 * 1024
"""Memory (kB) the database may use at least to build a collection's HNSW index at the end of a
load (the graph built in memory is the fast way; one that does not fit is built more slowly); a
server set to more keeps its own."""


class PostgresLocking(ABC):
    """The write lock of the PostgreSQL store (PostgresStore provides the pool and the tables)."""

    name: str
    location: str
    _db: Database
    _t: Tables
    _held: Any
    on_wait: Callable[[str], None]

    @abstractmethod
    def count(self) -> int:
        """Return how many chunks the collection holds (the store's)."""

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """Hold the collection's write lock (an advisory lock in the database) for the block.

        Every worker on every machine that shares the database takes turns; the lock dies with
        the connection of a writer that dies. Re-entrant within a thread.
        """
        depth = getattr(self._held, "depth", 0)
        if depth:
            self._held.depth = depth + 1
            try:
                yield
            finally:
                self._held.depth -= 1
            return
        wait = env_seconds("ADAPTIVE_RAG_WRITE_WAIT", WRITE_WAIT)
        conn = self._db.own_connection()  # not the pool's: a waiting writer holds it long
        try:
            self._lock(conn, wait)
            self._held.depth = 1
            self._index_vectors(conn)  # a load that died left it unbuilt
            yield
        finally:
            self._held.depth = 0
            conn.close()  # which releases the lock

    @contextmanager
    def loading(self) -> Iterator[None]:
        """Hold the write lock for a load; into an empty collection, index the vectors at the end.

        HNSW built over every vector at once is several times faster than vectors inserted one by
        one. Until it is built a vector search compares every vector (exact, and slower); if the
        loader dies, the next write builds it. The loaded tables are then vacuumed, so searches
        read the postings from their index alone at once.
        """
        with self._writing():
            deferred = self.count() == 0
            if deferred:
                with self._db.connection() as conn:
                    conn.execute(f"DROP INDEX IF EXISTS {self._t.chunks}_embedding_idx")
                self._held.loading = True
            try:
                yield
            finally:
                if deferred:
                    self._held.loading = False
                    with self._db.connection() as conn:
                        self._index_vectors(conn)
                        for part in SEARCHED:  # for index-only scans, and for the planner
                            conn.execute(f"VACUUM (ANALYZE) {getattr(self._t, part)}")

    def _index_vectors(self, conn: Any) -> None:
        """Build the collection's HNSW index if it is missing (not while a load defers it)."""
        if getattr(self._held, "loading", False):
            return
        found = conn.execute("SELECT to_regclass(%s)", (f"{self._t.chunks}_embedding_idx",))
        if found.fetchone()[0] is not None:
            return
        found = conn.execute("SELECT setting::bigint FROM pg_settings WHERE name = %s", (MEMORY,))
        if int(found.fetchone()[0]) < BUILD_MEMORY_KB:
            conn.execute(f"SET {MEMORY} = '{BUILD_MEMORY_KB}kB'")
        try:
            conn.execute(vector_index(self._t))
        finally:
            conn.execute(f"RESET {MEMORY}")

    def _lock(self, conn: Any, wait: float) -> None:
        """Take the collection's advisory lock on this connection, waiting up to `wait` s."""
        import psycopg

        got = conn.execute(
            "SELECT pg_try_advisory_lock(%s, %s)", (LOCK_SPACE, self._t.number)
        ).fetchone()
        if got and got[0]:
            return
        self.on_wait(
            f"waiting for another writer to {self.name!r} at {self.location} (up to {wait:.0f}s;"
            " ADAPTIVE_RAG_WRITE_WAIT)"
        )
        try:
            conn.execute(f"SET lock_timeout = {max(1, int(wait * 1000))}")
            conn.execute("SELECT pg_advisory_lock(%s, %s)", (LOCK_SPACE, self._t.number))
        except psycopg.errors.LockNotAvailable as exc:
            raise KnowledgeBaseBusyError(
                f"another writer kept writing to {self.name!r} at {self.location} for"
                f" {wait:.0f}s: try again when it is done, or wait longer with"
                " ADAPTIVE_RAG_WRITE_WAIT"
            ) from exc
        finally:
            conn.execute("RESET lock_timeout")
