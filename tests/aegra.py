"""The deployment on Aegra for tests: `scripts/deploy` up on the test PostgreSQL, then down.

Each deployment gets a database of its own in the PostgreSQL `scripts/test-env` started
(POSTGRES_URI), a Redis, and N Aegra processes (the first `api_only` of them execute no runs),
each stopped by its PID when the block ends. The Aegra venv (Python 3.12) is built once by
`scripts/deploy venv`; on a machine without a Python 3.12 the tests are skipped and say why, under
`make test` too (3.11 stays the default venv); a venv that fails to build fails them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jwt
import pytest
from servers import QUIET, ROOT, unavailable
from stores import server_uri

DEPLOY = ROOT / "scripts" / "deploy"
SECRET = "test-secret-for-adaptive-rag-auth-0123456789"
PICKED_UP = "Worker picked up run"
"""What an executing Aegra process logs when it takes a run from the queue."""


@dataclass(frozen=True)
class Worker:
    """One Aegra process of a deployment."""

    name: str
    url: str
    pid: int
    log: Path
    executors: int

    def ran(self, run_id: str) -> bool:
        """Whether this process executed the run (took it from the queue)."""
        return any(PICKED_UP in line and run_id in line for line in self.log_lines())

    def log_lines(self) -> list[str]:
        return self.log.read_text(errors="replace").splitlines()


def executed_by(workers: list[Worker], run_id: str, wait: float = 10.0) -> list[Worker]:
    """Return the processes that executed a run, waiting up to `wait` s for the log line."""
    deadline = time.monotonic() + wait
    while True:
        found = [w for w in workers if w.ran(run_id)]
        if found or time.monotonic() >= deadline:
            return found
        time.sleep(0.1)


def run_ended(client: Any, thread: str, run_id: str, deadline: float) -> str:
    """Wait for a run to leave pending/running; return its status (or 'running' at the deadline)."""
    status = "running"
    while time.monotonic() < deadline:
        status = str(client.runs.get(thread, run_id)["status"])
        if status not in ("pending", "running"):
            return status
        time.sleep(1.0)
    return status


def bearer(sub: str, groups: list[str] | None = None) -> dict[str, str]:
    claims = {"sub": sub, "groups": groups or [], "exp": int(time.time()) + 3600}
    return {"Authorization": f"Bearer {jwt.encode(claims, SECRET, algorithm='HS256')}"}


NO_PYTHON_312 = 3
"""scripts/deploy's exit code when no Python 3.12 is found."""


def aegra_venv() -> None:
    """Build the Aegra venv once; skip when no Python 3.12 is found, saying so; else fail."""
    built = subprocess.run(
        [sys.executable, str(DEPLOY), "venv"], capture_output=True, text=True, cwd=ROOT
    )
    if built.returncode == NO_PYTHON_312:  # a machine without 3.12 skips, even under `make test`
        pytest.skip("Aegra cannot run here: " + built.stderr.strip()[-600:])
    if built.returncode != 0:
        unavailable("the Aegra venv was not built: " + (built.stderr or built.stdout)[-1500:])


def config(work: Path, graphs: dict[str, str]) -> Path:
    """Write an Aegra config serving `graphs` (name -> file path:attribute) as the project does."""
    project = json.loads((ROOT / "aegra.json").read_text())
    project["graphs"] = graphs
    path = work / "aegra.json"
    path.write_text(json.dumps(project))
    return path


@contextmanager
def deployment(
    work: Path,
    graphs: dict[str, str] | None = None,
    *,
    workers: int = 2,
    api_only: int = 1,
    executors: int = 1,
    model_url: str = "",
    env: dict[str, str] | None = None,
) -> Iterator[list[Worker]]:
    """Bring up Aegra processes on the test PostgreSQL and a Redis; yield them; take all down.

    `graphs` None serves the project's own aegra.json; `model_url` '' starts no model server
    (the graphs run on scripted models or `env` names one).
    """
    aegra_venv()
    admin = server_uri()
    work.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, str(DEPLOY), "up", "--dir", str(work), "--database", admin]
    command += ["--workers", str(workers), "--api-only", str(api_only)]
    command += ["--executors", str(executors), "--secret", SECRET]
    command += ["--model-url", model_url] if model_url else ["--no-model"]
    if graphs is not None:
        command += ["--config", str(config(work, graphs))]
    environment = {**os.environ, **QUIET, **(env or {})}
    environment.pop("OPENAI_API_KEY", None)
    environment.pop("TAVILY_API_KEY", None)
    try:
        started = subprocess.run(
            command, capture_output=True, text=True, env=environment, cwd=ROOT, timeout=600
        )
        if started.returncode != 0:
            raise AssertionError(f"scripts/deploy up failed:\n{started.stdout}\n{started.stderr}")
        record: dict[str, Any] = json.loads((work / "deployment.json").read_text())
        yield [
            Worker(a["name"], a["url"], int(a["pid"]), Path(a["log"]), int(a["executors"]))
            for a in record["aegra"]
        ]
    finally:
        subprocess.run(
            [sys.executable, str(DEPLOY), "down", "--dir", str(work)],
            capture_output=True,
            cwd=ROOT,
            timeout=120,
        )
