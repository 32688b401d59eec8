"""Helpers for tests that start real servers on loopback."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, NoReturn

import httpx
import pytest


def free_port() -> int:
    """Return a loopback port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def unavailable(message: str) -> NoReturn:
    """Skip a test (or module) whose tool or service is missing; fail where every tier must run.

    Every tier must run under `make test` (scripts/test-tiers sets ADAPTIVE_RAG_EVERY_TIER) and in CI.
    """
    if os.environ.get("ADAPTIVE_RAG_EVERY_TIER") or os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message, allow_module_level=True)


def venv_cli(name: str, install_hint: str) -> str:
    """Find a console script beside this interpreter (the venv's bin may not be on PATH)."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if found is None:
        unavailable(f"{name} is not installed ({install_hint})")
    return found


Reply = tuple[int, bytes]


@contextmanager
def http_server(
    reply: Callable[[str, bytes, dict[str, str]], Reply], delay: float = 0.0
) -> Iterator[str]:
    """Serve `reply(path, body, headers) -> (status, body)` on loopback, after `delay` seconds."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            time.sleep(delay)
            status, payload = reply(self.path, body, dict(self.headers))
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            except OSError:
                pass  # the client gave up waiting

        do_GET = do_POST

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def silent_server() -> Iterator[int]:
    """Accept connections on a loopback port and never answer (a hung server)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(64)
        yield int(sock.getsockname()[1])


def stop_group(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server's process group: politely, then by force."""
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGCONT)  # a test may have frozen it
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=20)


@contextmanager
def chroma_process(folder: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    """Run `chroma run` on a loopback port over `folder` until the block ends."""
    cli = venv_cli("chroma", "pip install chromadb")
    log = (folder / "server.log").open("ab")
    proc = subprocess.Popen(
        [cli, "run", "--path", str(folder / "data"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        env={**os.environ, "ANONYMIZED_TELEMETRY": "False"},
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1).is_success:
                    break
            except httpx.HTTPError:
                time.sleep(0.3)
        else:
            pytest.fail("chroma run did not start:\n" + (folder / "server.log").read_text()[-2000:])
        yield proc
    finally:
        stop_group(proc)
        log.close()


@contextmanager
def llama_cpp_server(
    work: Path, model: Path, alias: str
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Serve a GGUF with llama.cpp's OpenAI-compatible server on a free port; yield its /v1 URL.

    The flags are docs/models.md's ("Use your own model server"): port 0 lets the server pick a
    free port, read back from its log; `--interrupt_requests False` keeps a second request from
    cutting a streamed reply short.
    """
    log_path = work / "llama-server.log"
    log = log_path.open("ab")
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(model)]
    command += ["--model_alias", alias, "--host", "127.0.0.1", "--port", "0", "--n_ctx", "4096"]
    command += ["--n_threads", str(max(1, min(os.cpu_count() or 2, 4)))]
    command += ["--interrupt_requests", "False", "--verbose", "False"]
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = ""
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None and not url:
            found = re.findall(r"running on (http://127\.0\.0\.1:\d+)", log_path.read_text())
            if found:
                try:
                    if httpx.get(f"{found[-1]}/v1/models", timeout=2).status_code == 200:
                        url = f"{found[-1]}/v1"
                except httpx.HTTPError:
                    pass
            time.sleep(0.3)
        if not url:
            pytest.fail("llama_cpp.server did not start:\n" + log_path.read_text()[-3000:])
        yield url, proc
    finally:
        stop_group(proc)
        log.close()


ROOT = Path(__file__).resolve().parents[1]
QUIET = {
    "LANGGRAPH_CLI_NO_ANALYTICS": "1",
    "LANGGRAPH_NO_VERSION_CHECK": "1",
    "LANGSMITH_TRACING": "false",
    "LANGCHAIN_TRACING_V2": "false",
}


@contextmanager
def langgraph_dev(
    work: Path, graphs: dict[str, str], env: dict[str, str] | None = None, port: int = 0
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Serve the project's langgraph.json plus `graphs` with `langgraph dev` from `work`."""
    cli = venv_cli("langgraph", "pip install -e '.[dev]'")
    project = json.loads((ROOT / "langgraph.json").read_text())
    project["dependencies"] = [str(ROOT)]
    project["graphs"].update(graphs)
    config = work / "langgraph.json"
    config.write_text(json.dumps(project))
    port = port or free_port()
    log_path = work / "server.log"
    log = log_path.open("ab")
    environment = {**os.environ, **QUIET, **(env or {})}
    environment.pop("OPENAI_API_KEY", None)
    environment.pop("TAVILY_API_KEY", None)
    command = [cli, "dev", "--config", str(config), "--host", "127.0.0.1", "--port", str(port)]
    proc = subprocess.Popen(
        [*command, "--no-browser", "--no-reload"],
        cwd=work,
        stdout=log,
        stderr=subprocess.STDOUT,
        env=environment,
        start_new_session=True,
    )
    url = ""
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            text = log_path.read_text(errors="replace")
            found = re.findall(r"API: (http://127\.0\.0\.1:\d+)", text)  # it may pick another
            candidate = found[-1] if found else f"http://127.0.0.1:{port}"
            try:
                if httpx.get(f"{candidate}/ok", timeout=2).status_code == 200:
                    url = candidate
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        if not url:
            pytest.fail("langgraph dev did not start:\n" + log_path.read_text()[-3000:])
        yield url, proc
    finally:
        stop_group(proc)
        log.close()


def http_figures(responses: list[Any]) -> dict[str, int]:
    """Count HTTP runs: answered (200 with an answer, or a 4xx that says why), errors (5xx)."""

    def answered(r: Any) -> bool:
        if r.status_code == 200:
            return bool((r.json() or {}).get("answer"))
        return 400 <= r.status_code < 500 and bool((r.json() or {}).get("detail"))

    return {
        "runs": len(responses),
        "answers": sum(answered(r) for r in responses),
        "errors": sum(r.status_code >= 500 for r in responses),
    }


def new_thread(url: str) -> str:
    """Create a thread on a served graph; return its id."""
    return str(httpx.post(f"{url}/threads", json={}, timeout=10).json()["thread_id"])


def messages_of(url: str, thread: str) -> list[dict[str, Any]]:
    """Return the messages a served thread holds."""
    state = httpx.get(f"{url}/threads/{thread}/state", timeout=10).json()
    return list((state.get("values") or {}).get("messages") or [])


def clarify_then_resume(asker: Any, resumer: Any, graph: str = "scripted") -> str:
    """Raise the clarify interrupt through one SDK client and resume it through another.

    Checks the interrupt is clarify's and the resumed run answered after searching with the
    reply; returns the thread.
    """
    thread = str(asker.threads.create()["thread_id"])
    asker.runs.wait(thread, graph, input={"question": "What about the other one?"})
    waiting = resumer.threads.get_state(thread)
    (interrupt,) = [i for task in waiting["tasks"] for i in task.get("interrupts", [])]
    assert interrupt["value"]["type"] == "clarify"
    out = resumer.runs.wait(thread, graph, command={"resume": "the Zephyr X2 kettle"})
    assert isinstance(out, dict) and out["answer"], out
    steps = out["diagnostics"]["steps"]
    assert "clarify" in steps and "retrieve" in steps  # resumed, then searched with the reply
    return thread
