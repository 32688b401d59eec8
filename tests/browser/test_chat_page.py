"""A real browser renders the agent's stream: question, the answer once, its sources, a follow-up.

The page (tests/browser/app) is the smallest chat UI on the official JS SDK's `useStream` hook,
which Agent Chat UI is built on; headless Chromium from Debian's packages drives it against
`langgraph dev` serving the scripted graph. The screenshot is written to BROWSER_SHOTS (default:
the test's temporary folder).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from servers import ROOT, free_port, langgraph_dev, stop_group

pytestmark = pytest.mark.browser

APP = Path(__file__).parent / "app"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium"
ANSWER = "The Zephyr X2 kettle has a 1.7 litre capacity [1]."  # the scripted model's answer


def _npm_install(folder: Path, tool: str, timeout: int, env: dict[str, str] | None = None) -> None:
    """Install a folder's pinned npm packages, unless its `tool` is there already."""
    npm = shutil.which("npm")
    assert npm, "npm is needed for the browser tier (Debian: apt-get install npm)"
    if not (folder / "node_modules" / ".bin" / tool).exists():
        subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=folder,
            check=True,
            timeout=timeout,
            env=env,
        )


@contextlib.contextmanager
def _dev_and_browser(tmp_path: Path, width: int, height: int) -> Iterator[tuple[str, Any, Path]]:
    """Serve the scripted graph with langgraph dev; yield its URL, a Chromium page, the shots dir."""
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), "Chromium is needed (Debian: apt-get install chromium)"
    scripted = f"{ROOT / 'tests' / 'server_graph.py'}:graph"
    shots = Path(os.environ.get("BROWSER_SHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    with langgraph_dev(tmp_path, {"scripted": scripted}) as (api, _), sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield api, browser.new_page(viewport={"width": width, "height": height}), shots
        finally:
            browser.close()


@pytest.fixture(scope="module")
def page_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Install the page's pinned packages (npm) and bundle it (esbuild)."""
    _npm_install(APP, "esbuild", timeout=600)
    out = tmp_path_factory.mktemp("page")
    subprocess.run(
        [str(APP / "node_modules" / ".bin" / "esbuild"), str(APP / "app.jsx"), "--bundle"]
        + [f"--outfile={out / 'bundle.js'}", '--define:process.env.NODE_ENV="production"']
        + ["--jsx=automatic", "--log-level=warning"],
        cwd=APP,
        check=True,
    )
    shutil.copy(APP / "index.html", out / "index.html")
    return out


@pytest.fixture(scope="module")
def static(page_dir: Path) -> Iterator[str]:
    """Serve the built page on a free loopback port."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(page_dir))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


WATCH = """() => {
  window.__maxAi = 0;
  new MutationObserver(() => {
    const n = document.querySelectorAll('.message.ai').length;
    window.__maxAi = Math.max(window.__maxAi, n);
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def _ask(page: object, question: str) -> None:
    page.fill("#question", question)  # type: ignore[attr-defined]
    page.click("#send")  # type: ignore[attr-defined]
    page.wait_for_function(  # type: ignore[attr-defined]
        "n => document.querySelectorAll('.message.human').length >= n"
        " && document.querySelector('#status').textContent === 'idle'",
        arg=1,
        timeout=60_000,
    )


def test_the_chat_page_shows_the_streamed_answer_once_with_sources_and_a_follow_up(
    static: str, tmp_path: Path
) -> None:
    with _dev_and_browser(tmp_path, 900, 700) as (api, page, shots):
        page.goto(f"{static}/index.html?api={api}&assistant=scripted")
        page.evaluate(WATCH)
        _ask(page, "How big is the Zephyr X2 kettle?")
        page.wait_for_function("() => document.querySelectorAll('.message.ai').length === 1")
        first = page.inner_text("#messages")
        assert first.count(ANSWER) == 1, first  # the answer once: no grader JSON, no repeats
        assert page.evaluate("window.__maxAi") == 1  # never two agent messages while streaming
        assert page.locator(".source").count() >= 1, page.inner_text("body")
        page.evaluate("window.__maxAi = 0")
        _ask(page, "And how long does it take to boil?")
        page.wait_for_function("() => document.querySelectorAll('.message.ai').length === 2")
        page.wait_for_function(
            "() => document.querySelectorAll('.message.human').length === 2", timeout=10_000
        )
        assert page.evaluate("window.__maxAi") == 2
        page.screenshot(path=str(shots / "chat-page.png"), full_page=True)
        text = page.inner_text("#messages")
    assert text.count("How big is the Zephyr X2 kettle?") == 1
    assert "{" not in text  # nothing from the internal JSON calls


ACU = Path(__file__).parent / "agent-chat-ui"


@pytest.fixture(scope="module")
def agent_chat_ui() -> Iterator[str]:
    """Build Agent Chat UI (vendored, one offline-build patch: see VENDORED.md) and start it."""
    npx = shutil.which("npx")
    assert npx, "npm is needed for the browser tier (Debian: apt-get install npm)"
    env = {**os.environ, "NEXT_TELEMETRY_DISABLED": "1"}
    _npm_install(ACU, "next", timeout=900, env=env)
    if not (ACU / ".next" / "BUILD_ID").exists():
        subprocess.run(
            [npx, "next", "build"], cwd=ACU, check=True, timeout=900, env=env, capture_output=True
        )
    port = free_port()
    proc = subprocess.Popen(
        [npx, "next", "start", "-p", str(port), "-H", "127.0.0.1"],
        cwd=ACU,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if httpx.get(url, timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.5)
        yield url
    finally:
        stop_group(proc)


def test_agent_chat_ui_renders_the_answer_once_with_sources_and_a_follow_up(
    agent_chat_ui: str, tmp_path: Path
) -> None:
    """The real Agent Chat UI against langgraph dev: it renders messages only, so the cited
    sources come listed under the answer in the final message."""
    with _dev_and_browser(tmp_path, 1100, 800) as (api, page, shots):
        page.goto(f"{agent_chat_ui}/?apiUrl={api}&assistantId=scripted")
        page.wait_for_selector("textarea", timeout=60_000)
        for turn, question in enumerate(
            ["How big is the Zephyr X2 kettle?", "And how long does it take to boil?"], start=1
        ):
            page.fill("textarea", question)
            page.get_by_role("button", name="Send").click()
            page.wait_for_function(
                "n => document.body.innerText.split('The Zephyr X2 kettle has a 1.7 litre capacity').length - 1 >= n",
                arg=turn,
                timeout=60_000,
            )
            page.wait_for_timeout(2000)  # let the final values settle
            text = page.inner_text("body")
            assert text.count(ANSWER) == turn, text  # each answer once: no repeats, no JSON
            assert text.count("Sources:") == turn, text  # each answer's cited sources, once
        assert "products/zephyr.md" in text, text
        page.screenshot(path=str(shots / "agent-chat-ui.png"))
    assert "grades" not in text and "grounded" not in text  # no internal JSON on screen
