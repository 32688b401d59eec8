"""Killed with kill -9 mid-answer, `langgraph dev` and the CLI's SQLite thread keep the conversation."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fake_sources import SAMPLE
from servers import ROOT, http_figures, langgraph_dev, messages_of, new_thread

pytestmark = pytest.mark.server

GRAPHS = {
    name: f"{ROOT / 'tests' / 'server_graph.py'}:{attr}"
    for name, attr in (("scripted", "graph"), ("slow", "slow_graph"))
}

FLUSH_WAIT = 12.0  # langgraph dev writes its in-memory store to disk every 10 s


def test_kill_9_mid_run_then_restart_keeps_the_thread(tmp_path: Path, tally: Any) -> None:
    work = tmp_path / "dev"
    work.mkdir()
    with langgraph_dev(work, GRAPHS) as (url, proc):
        thread = new_thread(url)
        first = httpx.post(
            f"{url}/threads/{thread}/runs/wait",
            json={"assistant_id": "slow", "input": {"question": "How big is the Zephyr X2?"}},
            timeout=60,
        )
        assert (
            first.status_code == 200
            and first.json()["answer"] == "The Zephyr X2 kettle holds 1.7 litres [1]."
        )
        time.sleep(FLUSH_WAIT)
        outcome: dict[str, Any] = {}

        def second_turn() -> None:
            try:
                outcome["response"] = httpx.post(
                    f"{url}/threads/{thread}/runs/wait",
                    json={"assistant_id": "slow", "input": {"question": "And how long to boil?"}},
                    timeout=60,
                )
            except httpx.HTTPError as exc:
                outcome["error"] = exc

        runner = threading.Thread(target=second_turn)
        runner.start()
        time.sleep(2.0)  # the slow model is writing its answer now
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=20)
        runner.join(timeout=30)
        assert "error" in outcome, "the run finished before the kill"
    with langgraph_dev(work, GRAPHS) as (url, _):
        kept = messages_of(url, thread)
        assert [m["type"] for m in kept[:2]] == ["human", "ai"], kept
        assert kept[1]["content"].startswith("The Zephyr X2 kettle holds 1.7 litres [1].")
        third = httpx.post(
            f"{url}/threads/{thread}/runs/wait",
            json={"assistant_id": "scripted", "input": {"question": "And how long to boil?"}},
            timeout=60,
        )
        assert third.status_code == 200, third.text
        body = third.json()
        assert body["answer"] and "rewrite_with_history" in body["diagnostics"]["steps"]
        assert body["messages"][0]["content"] == "How big is the Zephyr X2?"
    figures = http_figures([first, third])
    tally(faults=1, runs=figures["runs"] + 1, answers=figures["answers"], lost=2 - len(kept[:2]))


def test_cli_killed_mid_answer_keeps_its_sqlite_thread(tmp_path: Path, tally: Any) -> None:
    """`adaptive-rag ask --thread` (SQLite) killed mid-run; the next call continues the thread."""
    import json
    import subprocess
    import sys

    from servers import http_server

    slow = {"delay": 0.0, "requests": 0}

    def reply(path: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        slow["requests"] += 1
        time.sleep(slow["delay"])
        content = "The restocking fee is 10% [1]."
        return 200, json.dumps(
            {
                "id": "x",
                "object": "chat.completion",
                "created": 0,
                "model": "fake",
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": content},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
            }
        ).encode()

    cli = str(Path(sys.executable).parent / "adaptive-rag")
    with http_server(reply) as url:
        env = {
            **os.environ,
            "ADAPTIVE_RAG_DATA": str(tmp_path / "data"),
            "ADAPTIVE_RAG_CHAT_MODEL": "openai:fake",
            "OPENAI_BASE_URL": f"{url}/v1",
            "OPENAI_API_KEY": "sk-fake-key-for-the-loopback-server",
        }
        env.pop("CHROMA_HOST", None)
        env.pop("POSTGRES_URI", None)

        def ask(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run(
                [cli, "ask", *args], env=env, capture_output=True, text=True, timeout=300
            )

        ingest = subprocess.run(
            [cli, "ingest", str(SAMPLE)], env=env, capture_output=True, text=True, timeout=600
        )
        assert ingest.returncode == 0, ingest.stderr
        first = ask("What is the restocking fee for returns?")
        assert first.returncode == 0, first.stderr
        thread = first.stdout.strip().splitlines()[-1].removeprefix("thread: ")
        slow["delay"], before = 60.0, slow["requests"]
        killed = subprocess.Popen(
            [cli, "ask", "And for the Heron hub?", "--thread", thread],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 120
        while slow["requests"] == before and time.monotonic() < deadline:
            time.sleep(0.2)
        killed.send_signal(signal.SIGKILL)
        killed.wait(timeout=20)
        slow["delay"] = 0.0
        third = ask("And the warranty?", "--thread", thread, "--json")
    assert third.returncode == 0, third.stderr
    messages = json.loads(third.stdout)["messages"]
    assert messages[0] == {"role": "human", "content": "What is the restocking fee for returns?"}
    assert messages[1]["role"] == "ai" and "10%" in messages[1]["content"]
    assert messages[-2]["content"] == "And the warranty?" and messages[-1]["role"] == "ai"
    finished = [first, third]  # the killed CLI run is the fault
    tally(
        runs=len(finished) + 1,
        faults=1,
        answers=sum(p.returncode == 0 for p in finished),
        errors=sum(p.returncode != 0 for p in finished),
        lost=2 - len(messages[:2]),
    )
