"""The connection to a PostgreSQL database: one pool per process, reads retried, outages short.

- A read whose connection dropped under it (a server restart, a proxy, an administrator) is run
  once more on a fresh connection: reads change nothing, so running one again is safe. A
  connection is not checked when taken from the pool: that would cost every read a round trip.
- When no connection can be had for POOL_WAIT seconds, the database counts as down for DOWN_FOR
  seconds: every call in that time fails at once, so a question asked during an outage ends in
  seconds, not after one wait per search.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from adaptive_rag.knowledge.errors import KnowledgeBaseError

POOL_SIZE = 8
"""Connections one process keeps to the database at most."""
POOL_WAIT = 5.0
"""Seconds a call waits for a connection before the database counts as down."""
DOWN_FOR = 5.0
"""Seconds calls fail at once after the database was found down (then one tries again)."""
APPLICATION = "adaptive-rag"
"""How the store's connections name themselves to the database (pg_stat_activity), followed by
the process id: which worker holds which connection."""
EF_SEARCH = 100
"""HNSW candidates a vector search starts from; a search for more starts from as many as it asks
for (`deeper`), and with iterative scans one whose filter drops many reads on until it has as many
as it asked for."""
SESSION = (
    f"SET hnsw.ef_search = {EF_SEARCH}",
    "SET hnsw.iterative_scan = strict_order",
)
"""Settings every connection gets once, so a search is one round trip."""
_POOLS: dict[tuple[str, int], Database] = {}
_POOLS_LOCK = threading.Lock()


def deeper(n: int) -> dict[str, str] | None:
    """Return the settings a vector search for n results runs with (None: the session's)."""
    return {"hnsw.ef_search": str(n)} if n > EF_SEARCH else None


def where_is(uri: str) -> str:
    """Return a database's address for messages: host, port and name, never a password."""
    from psycopg.conninfo import conninfo_to_dict

    try:
        parts = conninfo_to_dict(uri)
    except Exception:
        return "PostgreSQL (KNOWLEDGE_URI)"
    host = parts.get("host") or "localhost"
    return f"PostgreSQL {host}:{parts.get('port') or 5432}/{parts.get('dbname') or ''}"


def database(uri: str) -> Database:
    """Return this process's connection to a database, opened on first use."""
    key = (uri, os.getpid())  # a pool is never shared across a fork
    with _POOLS_LOCK:
        found = _POOLS.get(key)
        if found is None:
            found = _POOLS[key] = Database(uri)
        return found


def forget(uri_part: str) -> None:
    """Close this process's connections to the databases whose URI holds `uri_part` (tests)."""
    with _POOLS_LOCK:
        for key in [k for k in _POOLS if uri_part in k[0]]:
            _POOLS.pop(key).close()


class Database:
    """A pool of connections (autocommit; a transaction where a block asks for one)."""

    def __init__(self, uri: str) -> None:
        from psycopg_pool import ConnectionPool

        self.where = where_is(uri)
        self._uri = uri
        self._down_until = 0.0
        self.own_connection().close()  # a wrong address or password says so, at once
        self._pool = ConnectionPool(
            uri,
            min_size=1,
            max_size=POOL_SIZE,
            kwargs={
                "autocommit": True,
                "connect_timeout": 10,
                "application_name": f"{APPLICATION} {os.getpid()}",
            },
            configure=_configure,
            timeout=POOL_WAIT,
            open=False,
            name=APPLICATION,
        )
        try:
            self._pool.open(wait=True, timeout=15)
        except Exception as exc:
            self._pool.close()
            raise KnowledgeBaseError(
                f"cannot reach {self.where}: {exc}. Check KNOWLEDGE_URI and that the server is"
                " running"
            ) from exc

    @contextmanager
    def connection(self) -> Iterator[Any]:
        """Yield a connection from the pool; KnowledgeBaseError while the database is down."""
        from psycopg_pool import PoolTimeout

        if time.monotonic() < self._down_until:
            raise KnowledgeBaseError(f"{self.where} is unreachable: retrying in a few seconds")
        try:
            conn = self._pool.getconn()
        except PoolTimeout as exc:
            self._down_until = time.monotonic() + DOWN_FOR
            raise KnowledgeBaseError(f"{self.where} is unreachable: {exc}") from exc
        try:
            yield conn
        finally:
            self._pool.putconn(conn)

    def own_connection(self) -> Any:
        """Return a connection of its own, outside the pool (a writer's lock holds one).

        KnowledgeBaseError, with the server's reason and without the URI, when none can be made.
        """
        import psycopg

        try:
            conn = psycopg.connect(
                self._uri,
                autocommit=True,
                connect_timeout=10,
                application_name=f"{APPLICATION} {os.getpid()}",
            )
        except psycopg.Error as exc:
            reason = str(exc).replace(self._uri, "KNOWLEDGE_URI")
            raise KnowledgeBaseError(
                f"cannot connect to {self.where}: {reason}. Check KNOWLEDGE_URI and that the"
                " server is running"
            ) from exc
        _configure(conn)
        return conn

    def rows(
        self, sql: str, params: Any = None, settings: dict[str, str] | None = None
    ) -> list[Any]:
        """Run one read and return its rows; once more on a fresh connection if it dropped.

        `settings`: values for this read alone (set in its own transaction), e.g. a deeper
        hnsw.ef_search. After a drop the pool's idle connections are checked first (a restarted
        server has dropped them all), so the retry gets a live one.
        """
        import psycopg

        for attempt in (1, 2):
            used: list[Any] = []
            try:
                with self.connection() as conn:
                    used.append(conn)
                    if not settings:
                        return list(conn.execute(sql, params).fetchall())
                    with conn.transaction():
                        for name, value in settings.items():
                            conn.execute("SELECT set_config(%s, %s, true)", (name, value))
                        return list(conn.execute(sql, params).fetchall())
            except psycopg.OperationalError:
                if attempt == 2 or not used or not _dropped(used[0]):
                    raise
                self._pool.check()
        raise AssertionError("a read is tried twice at most")

    def close(self) -> None:
        """Close every connection."""
        self._pool.close()


def _configure(conn: Any) -> None:
    """Give a new connection the search settings (SESSION)."""
    for setting in SESSION:
        conn.execute(setting)


def _dropped(conn: Any) -> bool:
    """Whether a connection was lost (rather than a query failing on a live one)."""
    return bool(conn.closed or conn.broken)
