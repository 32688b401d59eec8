"""`langgraph dev` serves the project's graph: start it on a free port, run a thread, stop it."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from servers import free_port, venv_cli

ROOT = Path(__file__).resolve().parents[1]
QUIET = {
    "LANGGRAPH_CLI_NO_ANALYTICS": "1",
    "LANGGRAPH_NO_VERSION_CHECK": "1",
    "LANGSMITH_TRACING": "false",
    "LANGCHAIN_TRACING_V2": "false",
}

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    cli = venv_cli("langgraph", "pip install -e '.[dev]'")
    work = tmp_path_factory.mktemp("dev")
    project = json.loads((ROOT / "langgraph.json").read_text())
    project["dependencies"] = [str(ROOT)]
    project["graphs"]["scripted"] = f"{ROOT / 'tests' / 'server_graph.py'}:graph"
    config = work / "langgraph.json"
    config.write_text(json.dumps(project))
    port = free_port()
    log = (work / "server.log").open("w")
    env = {**os.environ, **QUIET}
    env.pop("OPENAI_API_KEY", None)
    env.pop("TAVILY_API_KEY", None)
    proc = subprocess.Popen(
        [
            cli,
            "dev",
            "--config",
            str(config),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--no-browser",
            "--no-reload",
        ],
        cwd=work,
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
        start_new_session=True,
    )
    url = ""
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            text = (work / "server.log").read_text(errors="replace")
            found = re.search(r"API: (http://127\.0\.0\.1:\d+)", text)  # it may pick another port
            candidate = found.group(1) if found else f"http://127.0.0.1:{port}"
            try:
                if httpx.get(f"{candidate}/ok", timeout=2).status_code == 200:
                    url = candidate
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        if not url:
            pytest.fail(
                "langgraph dev did not start:\n" + (work / "server.log").read_text()[-3000:]
            )
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()


def run(url: str, thread: str, graph: str, payload: dict[str, Any], **extra: Any) -> Any:
    response = httpx.post(
        f"{url}/threads/{thread}/runs/wait",
        json={"assistant_id": graph, "input": payload, **extra},
        timeout=60,
    )
    response.raise_for_status()
    return response.json()


def test_serves_the_project_graph_with_its_context_schema(server: str) -> None:
    found = httpx.post(f"{server}/assistants/search", json={"graph_id": "agent"}, timeout=10)
    assert found.status_code == 200 and found.json(), found.text
    assistant = found.json()[0]["assistant_id"]
    schemas = httpx.get(f"{server}/assistants/{assistant}/schemas", timeout=10).json()
    context = schemas["context_schema"]["properties"]
    assert {"chat_model", "max_rewrites", "max_regenerations", "max_web_searches"} <= set(context)
    assert "question" in schemas["input_schema"]["properties"]
    assert {"answer", "sources", "route", "confidence"} <= set(
        schemas["output_schema"]["properties"]
    )


def test_real_agent_without_keys_answers_a_greeting(server: str) -> None:
    # with the `local` extra the embedded model answers; without it, an honest "could not answer"
    thread = httpx.post(f"{server}/threads", json={}, timeout=10).json()["thread_id"]
    out = run(server, thread, "agent", {"question": "Hello!"})
    assert out["route"]["category"] == "general" and out["answer"].strip()
    assert out["diagnostics"]["steps"][-1] == "finalize"


def test_a_thread_runs_two_turns_with_context(server: str) -> None:
    thread = httpx.post(f"{server}/threads", json={}, timeout=10).json()["thread_id"]
    first = run(
        server,
        thread,
        "scripted",
        {"question": "How big is the Zephyr X2 kettle?"},
        context={"k": 2, "max_rewrites": 0},
    )
    assert first["route"]["category"] == "simple"
    assert first["sources"][0]["title"] == "Zephyr X2" and first["verified"] is True
    second = run(
        server,
        thread,
        "scripted",
        {"messages": [{"role": "user", "content": "How long does it take to boil?"}]},
    )
    assert "rewrite_with_history" in second["diagnostics"]["steps"]
    assert len(second["messages"]) == 4


def test_bad_context_is_a_client_error_not_a_crash(server: str) -> None:
    thread = httpx.post(f"{server}/threads", json={}, timeout=10).json()["thread_id"]
    response = httpx.post(
        f"{server}/threads/{thread}/runs/wait",
        json={"assistant_id": "scripted", "input": {"question": "hi"}, "context": {"k": 0}},
        timeout=60,
    )
    body = response.text
    assert response.status_code >= 400 or "k must be between" in body
    ok = run(server, thread, "scripted", {"question": "How big is the Zephyr X2 kettle?"})
    assert ok["answer"]
