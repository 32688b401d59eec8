"""Throughput of the agent on Aegra with one and with two executing processes, one model server.

Each deployment is `scripts/deploy up` with one API-only process in front and 1 or 2 processes
that execute runs (one run at a time each); all share one llama.cpp server started once, so the
figures are ratios within one run. Users send their turns at once through the API-only process,
each on a thread of its own; the deployments take turns over `rounds`.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "scripts" / "deploy"
SECRET = "benchmark-secret-for-adaptive-rag-0123456789"


def _deploy(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run scripts/deploy with this interpreter (the main venv)."""
    return subprocess.run(
        [sys.executable, str(DEPLOY), *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=ROOT,
        check=False,
    )


def _token(user: str) -> str:
    import jwt

    claims = {"sub": user, "exp": int(time.time()) + 7200}
    return str(jwt.encode(claims, SECRET, algorithm="HS256"))


def _turns(url: str, users: int, turns: int, questions: list[str], settings: dict[str, Any]) -> Any:
    """Send each user's turns on a thread of their own, all users at once; time every turn."""
    import httpx

    def converse(index: int) -> list[tuple[float, bool]]:
        headers = {"Authorization": f"Bearer {_token(f'user{index}')}"}
        thread = httpx.post(f"{url}/threads", json={}, headers=headers, timeout=60).json()
        timed = []
        for turn in range(turns):
            question = questions[(index * turns + turn) % len(questions)]
            started = time.perf_counter()
            response = httpx.post(
                f"{url}/threads/{thread['thread_id']}/runs/wait",
                json={
                    "assistant_id": "agent",
                    "input": {"messages": [{"role": "user", "content": question}]},
                    "context": settings,
                },
                headers=headers,
                timeout=1800,
            )
            ok = response.status_code == 200 and bool(response.json().get("answer"))
            timed.append((time.perf_counter() - started, ok))
        return timed

    started = time.perf_counter()
    with ThreadPoolExecutor(users) as pool:
        results = [t for user in pool.map(converse, range(users)) for t in user]
    return time.perf_counter() - started, results


def run(
    questions: list[str],
    kb_path: str,
    collection: str,
    users: int,
    turns: int,
    rounds: int,
    progress: Callable[[str], None],
) -> list[dict[str, Any]]:
    """Measure 1 and 2 executing processes in turn; return one row per deployment."""
    sys.path.insert(0, str(ROOT / "tests"))
    from adaptive_rag.providers.local_weights import model_path
    from servers import llama_cpp_server  # the test tier's model server, started once

    settings = {"kb_path": kb_path, "collection": collection, "answer_cache": False}
    env = {"KNOWLEDGE_URI": "", "ADAPTIVE_RAG_AUTH_SECRET": SECRET}
    figures: dict[int, dict[str, Any]] = {
        n: {"seconds": 0.0, "turns": [], "errors": 0} for n in (1, 2)
    }
    work = Path(tempfile.mkdtemp(prefix="aegra-bench-"))
    with llama_cpp_server(work, model_path(False), "qwen2.5-coder-1.5b-instruct") as (model, _):
        for round_ in range(rounds):
            for executing in (1, 2):
                folder = work / f"deploy-{executing}-{round_}"
                up = _deploy(
                    "up",
                    "--dir",
                    str(folder),
                    "--workers",
                    str(executing + 1),
                    "--api-only",
                    "1",
                    "--model-url",
                    model,
                    "--secret",
                    SECRET,
                    env=env,
                )
                if up.returncode != 0:
                    raise RuntimeError(f"scripts/deploy up failed:\n{up.stdout}\n{up.stderr}")
                try:
                    record = json.loads((folder / "deployment.json").read_text())
                    api = record["aegra"][0]["url"]
                    _turns(api, 1, 1, questions[:1], settings)  # warm: load the embedder, graph
                    progress(f"round {round_ + 1}: {executing} executing, {users} users ...")
                    wall, timed = _turns(api, users, turns, questions, settings)
                finally:
                    _deploy("down", "--dir", str(folder))
                row = figures[executing]
                row["seconds"] += wall
                row["turns"] += [seconds for seconds, ok in timed if ok]
                row["errors"] += sum(not ok for _, ok in timed)
    rows = []
    base = len(figures[1]["turns"]) / figures[1]["seconds"]
    for executing, row in figures.items():
        done = row["turns"]
        rate = len(done) / row["seconds"]
        rows.append(
            {
                "executing processes": executing,
                "turns": len(done),
                "errors": row["errors"],
                "turns a minute": round(60 * rate, 1),
                "× one process": round(rate / base, 2),
                "p50 s": round(statistics.median(done), 1) if done else None,
                "p95 s": round(sorted(done)[int(0.95 * (len(done) - 1))], 1) if done else None,
            }
        )
    return rows
