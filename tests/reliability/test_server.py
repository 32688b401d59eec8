"""`langgraph dev` under bad requests and under load, plain and on a Chroma server.

Restarts after kill -9 are in test_restarts.py.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from adaptive_rag.knowledge.chroma.store import ChromaStore
from fake_sources import SAMPLE, HashEmbeddings
from servers import (
    ROOT,
    chroma_process,
    free_port,
    http_figures,
    langgraph_dev,
    messages_of,
    new_thread,
)

pytestmark = pytest.mark.server

GRAPHS = {
    name: f"{ROOT / 'tests' / 'server_graph.py'}:{attr}"
    for name, attr in (("scripted", "graph"), ("chroma", "chroma_graph"))
}
THREADS = int(os.environ.get("LOAD_THREADS", "16"))
TURNS = int(os.environ.get("LOAD_TURNS", "4"))
LOAD_DEADLINE = 300.0  # seconds: the load test is bounded in count and in time


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Chroma server holding the sample knowledge base, and langgraph dev in front of it."""
    chroma_dir = tmp_path_factory.mktemp("chroma")
    port = free_port()
    env = {"CHROMA_HOST": "127.0.0.1", "CHROMA_PORT": str(port), "CHROMA_TIMEOUT": "10"}
    with chroma_process(chroma_dir, port):
        saved = {k: os.environ.get(k) for k in env}
        os.environ.update(env)
        try:
            kb = ChromaStore.open("", "load", "test:hash", create=True, embeddings=HashEmbeddings())
            kb.ingest([str(SAMPLE)], progress=False)
        finally:
            for key, value in saved.items():
                os.environ.pop(key) if value is None else os.environ.update({key: value})
        with langgraph_dev(tmp_path_factory.mktemp("dev"), GRAPHS, env) as (url, _):
            yield url


BAD_REQUESTS: dict[str, dict[str, Any]] = {
    "question is a number": {"input": {"question": 123}},
    "question is a list": {"input": {"question": ["How big?"]}},
    "input is a string": {"input": "How big is the kettle?"},
    "message content is a number": {"input": {"messages": [{"role": "user", "content": 5}]}},
    "100 KB question": {"input": {"question": "How big is it? " * 7000}},
    "binary junk": {"input": {"question": "".join(chr(c) for c in range(32)) * 30}},
    "context k is text": {"input": {"question": "hi"}, "context": {"k": "abc"}},
    "unknown context field": {"input": {"question": "hi"}, "context": {"temperature": 2}},
    "200 KB in message content": {
        "input": {"messages": [{"role": "user", "content": "How big is it? " * 14000}]}
    },
    "image-only message": {
        "input": {
            "messages": [
                {
                    "role": "user",
                    "content": [{"type": "image_url", "image_url": {"url": "data:,x"}}],
                }
            ]
        }
    },
    "configurable k=-5": {"input": {"question": "hi"}, "config": {"configurable": {"k": -5}}},
}


def test_wrong_types_through_the_api_are_4xx_and_store_nothing(stack: str, tally: Any) -> None:
    thread = new_thread(stack)
    first = httpx.post(
        f"{stack}/threads/{thread}/runs/wait",
        json={"assistant_id": "scripted", "input": {"question": "How big is the Zephyr X2?"}},
        timeout=60,
    )
    assert first.status_code == 200 and first.json()["answer"]
    before = messages_of(stack, thread)
    statuses, responses = {}, [first]
    for name, body in BAD_REQUESTS.items():
        for path in ("runs/wait", "runs", "runs/stream"):
            response = httpx.post(
                f"{stack}/threads/{thread}/{path}",
                json={"assistant_id": "scripted", **body},
                timeout=60,
            )
            statuses[f"{name} ({path})"] = response.status_code
            responses.append(response)
            assert response.status_code == 422, (name, path, response.text[:300])
            assert response.json()["detail"], name
    garbage = httpx.post(
        f"{stack}/threads/{thread}/runs/wait",
        content=b"\xff\xfe{not json",
        headers={"content-type": "application/json"},
        timeout=10,
    )
    unknown_thread = httpx.post(
        f"{stack}/threads/00000000-0000-4000-8000-000000000000/runs/wait",
        json={"assistant_id": "scripted", "input": {"question": "hi"}},
        timeout=10,
    )
    unknown_graph = httpx.post(
        f"{stack}/threads/{thread}/runs/wait",
        json={"assistant_id": "nope", "input": {"question": "hi"}},
        timeout=10,
    )
    assert garbage.status_code == 422 and unknown_graph.status_code == 422
    assert unknown_thread.status_code == 404
    assert messages_of(stack, thread) == before  # nothing stored, nothing corrupted
    after = httpx.post(
        f"{stack}/threads/{thread}/runs/wait",
        json={"assistant_id": "scripted", "input": {"question": "And how long to boil?"}},
        timeout=60,
    )
    assert after.status_code == 200 and len(after.json()["messages"]) == 4
    responses += [garbage, unknown_thread, unknown_graph, after]
    tally(faults=len(statuses) + 3, **http_figures(responses))


async def _load(url: str, graph: str) -> dict[str, Any]:
    """THREADS conversations at once, TURNS turns each; return latencies and errors."""
    latencies: list[float] = []
    errors: list[str] = []
    async with httpx.AsyncClient(timeout=120) as client:

        async def conversation(n: int) -> None:
            thread = (await client.post(f"{url}/threads", json={})).json()["thread_id"]
            questions = ["What is the restocking fee for returns?", "And how long does it take?"]
            for turn in range(TURNS):
                started = time.perf_counter()
                response = await client.post(
                    f"{url}/threads/{thread}/runs/wait",
                    json={
                        "assistant_id": graph,
                        "input": {"question": questions[min(turn, 1)] + f" ({n}.{turn})"},
                    },
                )
                latencies.append(time.perf_counter() - started)
                body = response.json() if response.status_code == 200 else {}
                if response.status_code != 200 or "__error__" in body or not body.get("answer"):
                    errors.append(f"{response.status_code} {response.text[:200]}")
                    continue
                if len(body["messages"]) != 2 * (turn + 1):
                    errors.append(f"thread {thread}: {len(body['messages'])} messages")

        started = time.perf_counter()
        await asyncio.wait_for(
            asyncio.gather(*(conversation(n) for n in range(THREADS))), LOAD_DEADLINE
        )
        wall = time.perf_counter() - started
    return {"latencies": latencies, "errors": errors, "wall": wall}


@pytest.mark.parametrize("graph", ["scripted", "chroma"])
def test_concurrent_threads_under_load_have_zero_errors(
    stack: str, graph: str, tally: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    result = asyncio.run(_load(stack, graph))
    runs = len(result["latencies"])
    latencies = sorted(result["latencies"])
    p95 = latencies[max(0, int(round(0.95 * runs)) - 1)]
    with capsys.disabled():
        print(
            f"\nload[{graph}]: {THREADS} threads x {TURNS} turns = {runs} runs in"
            f" {result['wall']:.1f} s -> {runs / result['wall']:.2f} runs/s;"
            f" latency p50 {statistics.median(latencies):.2f} s, p95 {p95:.2f} s;"
            f" errors {len(result['errors'])}"
        )
    assert runs == THREADS * TURNS
    assert result["errors"] == []
    tally(runs=runs, answers=runs - len(result["errors"]), errors=len(result["errors"]))


def test_assistants_and_batch_runs_follow_the_same_rule(stack: str, tally: Any) -> None:
    """A bad context cannot be saved on an assistant, and a batch is checked run by run."""
    bad = {"graph_id": "scripted", "context": {"k": -5}}
    created = httpx.post(f"{stack}/assistants", json=bad, timeout=10)
    good = httpx.post(f"{stack}/assistants", json={"graph_id": "scripted"}, timeout=10)
    assert good.status_code == 200, good.text
    assistant = good.json()["assistant_id"]
    patched = httpx.patch(
        f"{stack}/assistants/{assistant}", json={"config": {"configurable": {"k": 99}}}, timeout=10
    )
    thread = new_thread(stack)
    batch = httpx.post(
        f"{stack}/runs/batch",
        json=[
            {"assistant_id": assistant, "input": {"question": "How big is the Zephyr X2?"}},
            {"assistant_id": assistant, "input": {"question": 5}},
        ],
        timeout=10,
    )
    for response, words in ((created, "k must be"), (patched, "k must be"), (batch, "run 1:")):
        assert response.status_code == 422, response.text
        assert words in response.json()["detail"], response.json()
    assert messages_of(stack, thread) == []  # nothing ran
    ok = httpx.post(
        f"{stack}/threads/{thread}/runs/wait",
        json={"assistant_id": assistant, "input": {"question": "How big is the Zephyr X2?"}},
        timeout=60,
    )
    assert ok.status_code == 200 and ok.json()["answer"]
    tally(faults=3, **http_figures([created, patched, batch, ok]))
