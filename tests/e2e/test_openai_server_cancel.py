"""Cancelling a run on a real OpenAI-compatible server (llama.cpp's) frees the server.

llama.cpp's server stops a reply only when a streamed connection closes, so every call is
streamed under a cancellable run; a cancel, in-process or through `langgraph dev`'s runs.cancel,
must leave the server idle within about a second (or three tokens at its pace).
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import time
from pathlib import Path
from typing import Any

import pytest
from adaptive_rag import build_graph
from hosted_model import (
    ALIAS,
    COMPARE,
    KB,
    SIMPLE,
    Calls,
    busy_until,
    context,
    first_token_after,
    freed_within,
    pace,
)
from servers import langgraph_dev

pytestmark = pytest.mark.local_model

if not os.environ.get("CI") and not all(
    importlib.util.find_spec(name) for name in ("llama_cpp", "fastapi", "starlette_context")
):
    pytest.skip("llama.cpp's server needs the `local` extra", allow_module_level=True)


AEGRA_ENV = {"KNOWLEDGE_URI": "", "ADAPTIVE_RAG_CHAT_MODEL": f"openai:{ALIAS}"}
"""Aegra's workers: the model server's model, the knowledge base in Chroma at `kb_path`."""
LONG = "Explain the whole warranty in detail."
"""A question whose answer is long enough to be stopped while it is written."""


def served_settings(kb_dir: Path) -> dict[str, Any]:
    """The run context of the served tests: the sample knowledge base, no answer cache."""
    return {
        "kb_path": str(kb_dir),
        "collection": "quillon",
        "kb_description": KB,
        "answer_cache": False,
    }


def stream_answer(
    client: Any, thread: str, settings: dict[str, Any]
) -> tuple[str, list[Any], list[Any]]:
    """Stream the answer to SIMPLE on a thread: its run id, the AI message chunks, the values."""
    run_id, chunks, values = "", [], []
    for part in client.runs.stream(
        thread,
        "agent",
        input={"messages": [{"role": "user", "content": SIMPLE}]},
        context=settings,
        stream_mode=["messages-tuple", "values"],
    ):
        if part.event == "metadata":
            run_id = part.data["run_id"]
        elif part.event == "messages" and part.data[0]["type"].lower().startswith("ai"):
            chunks.append(part.data)
        elif part.event == "values":
            values.append(part.data)
    return run_id, chunks, values


def long_answer_begun(
    client: Any, thread: str, settings: dict[str, Any], tokens: int
) -> tuple[str, list[float]]:
    """Start the long answer and stop reading after `tokens` of its tokens: run id, their times."""
    run_id, times = "", []
    for part in client.runs.stream(
        thread,
        "agent",
        input={"messages": [{"role": "user", "content": LONG}]},
        context={**settings, "declines": "never"},
        stream_mode="messages-tuple",
    ):
        if part.event == "metadata":
            run_id = part.data["run_id"]
        elif part.event == "messages" and part.data[0]["type"].lower().startswith("ai"):
            times.append(time.monotonic())
            if len(times) == tokens:  # the answer is being written
                break
    return run_id, times


def test_a_run_cancelled_during_a_json_judgment_frees_the_server(
    hosted: str, server: tuple[str, int], hosted_kb: Path
) -> None:
    """What runs.cancel does on `langgraph dev`: cancel the async run in a hop's JSON reply."""
    graph, ctx = build_graph(), context(hosted_kb, complex_shape="sequential")

    async def main() -> tuple[float, int, Calls]:
        loop = asyncio.get_running_loop()
        seen: asyncio.Queue[str] = asyncio.Queue()
        calls = Calls("hop", lambda event: loop.call_soon_threadsafe(seen.put_nowait, event))

        async def consume() -> None:
            async for _ in graph.astream(
                {"question": COMPARE}, {"callbacks": [calls]}, context=ctx, stream_mode="updates"
            ):
                pass

        task = asyncio.create_task(consume())
        for _ in range(4):  # the reply has begun: its role, then tokens at the server's pace
            event = await asyncio.wait_for(seen.get(), timeout=600)
            assert event == "token", "the hop's reply was not streamed: a cancel cannot stop it"
        task.cancel()
        started, (hop_call,) = time.monotonic(), calls.of("hop")
        written = len(hop_call["times"])
        return await asyncio.to_thread(busy_until, server[1], started), written, calls

    busy, at_cancel, calls = asyncio.run(main())
    then = first_token_after(hosted)
    (hop_call,) = calls.of("hop")
    times = hop_call["times"][:at_cancel]
    print(f"\ncancel in the hop's JSON reply ({pace(times):.2f} s a token): the server", end=" ")
    print(f"computed {busy:.2f} s more; a request then got its first token in {then:.2f} s")
    assert len(hop_call["times"]) - at_cancel <= 2, hop_call  # the client stopped reading
    assert busy < freed_within(times), busy  # and the server stopped writing


def test_the_answer_streams_over_langgraph_dev_and_a_cancel_frees_the_server(
    hosted: str, server: tuple[str, int], hosted_kb: Path, tmp_path: Path
) -> None:
    from langgraph_sdk import get_sync_client

    env = {
        "OPENAI_BASE_URL": hosted,
        "ADAPTIVE_RAG_CHAT_MODEL": f"openai:{ALIAS}",
        "ADAPTIVE_RAG_DATA": str(tmp_path / "data"),
    }
    settings = served_settings(hosted_kb)
    with langgraph_dev(tmp_path, {}, env) as (url, _):
        client = get_sync_client(url=url)
        thread = client.threads.create()["thread_id"]
        _, chunks, values = stream_answer(client, thread, settings)
        assert {meta["langgraph_node"] for _, meta in chunks} == {"generate"}, chunks[:3]
        assert len({message["id"] for message, _ in chunks}) == 1
        assert len(chunks) >= 5  # token by token, not the answer in one piece
        streamed = "".join(message["content"] for message, _ in chunks).strip()
        final = values[-1]
        # the final message replaces the streamed one under its id, citations repaired
        answer = final["messages"][-1]
        assert answer["id"] == chunks[0][0]["id"], (answer["id"], chunks[0][0]["id"])
        assert "14" in streamed and "14" in answer["content"]
        assert not final["failures"], final["failures"]

        thread = client.threads.create()["thread_id"]
        run_id, times = long_answer_begun(client, thread, settings, tokens=4)
        started = time.monotonic()
        client.runs.cancel(thread, run_id)
        busy = busy_until(server[1], started)
        then = first_token_after(hosted)
    print(f"\nruns.cancel mid-answer ({pace(times):.2f} s a token): the server", end=" ")
    print(f"computed {busy:.2f} s more; a request then got its first token in {then:.2f} s")
    assert busy < freed_within(times), busy


def test_on_aegra_the_answer_streams_through_a_process_that_runs_nothing_and_a_cancel_there_frees_the_server(
    hosted: str, server: tuple[str, int], hosted_kb: Path, tmp_path: Path
) -> None:
    """The project's aegra.json on two Aegra processes sharing the model server: A takes the
    requests and executes nothing, so B runs each; tokens stream through A, A's cancel stops B."""
    from aegra import bearer, deployment
    from langgraph_sdk import get_sync_client

    settings = served_settings(hosted_kb)
    with deployment(tmp_path / "aegra", model_url=hosted, env=AEGRA_ENV) as (a, b):
        client = get_sync_client(url=a.url, headers=bearer("alice"))
        thread = client.threads.create()["thread_id"]
        run_id, chunks, values = stream_answer(client, thread, settings)
        assert b.ran(run_id) and not a.ran(run_id)
        assert len(chunks) >= 5  # token by token, not the answer in one piece
        assert "14" in values[-1]["messages"][-1]["content"], values[-1]["messages"][-1]

        thread = client.threads.create()["thread_id"]
        run_id, times = long_answer_begun(client, thread, settings, tokens=4)
        started = time.monotonic()
        client.runs.cancel(thread, run_id)
        busy = busy_until(server[1], started)
        status = client.runs.get(thread, run_id)["status"]
        assert b.ran(run_id) and not a.ran(run_id)
    print(
        f"\nAegra: cancel sent to A mid-answer on B ({pace(times):.2f} s a token): the server",
        end=" ",
    )
    print(f"computed {busy:.2f} s more; the run's status: {status}")
    assert busy < freed_within(times), busy
    assert status in ("interrupted", "cancelled", "error"), status


def test_on_aegra_a_worker_killed_mid_answer_leaves_the_thread_whole_and_the_others_serving(
    hosted: str, server: tuple[str, int], hosted_kb: Path, tmp_path: Path
) -> None:
    """kill -9 of the process writing an answer with the real model server: the survivor serves
    the next run at once, the killed run ends, and the thread keeps its first turn."""
    import os
    import signal

    from aegra import bearer, deployment, run_ended
    from langgraph_sdk import get_sync_client

    settings = served_settings(hosted_kb)
    with deployment(tmp_path / "aegra", model_url=hosted, env=AEGRA_ENV, workers=3) as workers:
        a = workers[0]
        client = get_sync_client(url=a.url, headers=bearer("alice"))
        thread = client.threads.create()["thread_id"]
        first = client.runs.wait(
            thread,
            "agent",
            input={"messages": [{"role": "user", "content": SIMPLE}]},
            context=settings,
        )
        assert isinstance(first, dict) and "14" in first["answer"], first
        run_id, _ = long_answer_begun(client, thread, settings, tokens=1)
        victim = next(w for w in workers if w.ran(run_id))  # the answer is being written there
        assert victim is not a
        killed = time.monotonic()
        os.killpg(victim.pid, signal.SIGKILL)
        survivor = next(w for w in workers[1:] if w is not victim)
        other = get_sync_client(url=survivor.url, headers=bearer("alice"))
        fresh = other.threads.create()["thread_id"]
        served = other.runs.wait(
            fresh,
            "agent",
            input={"messages": [{"role": "user", "content": "Hello!"}]},
            context=settings,
        )
        next_served = time.monotonic() - killed
        status = run_ended(client, thread, run_id, deadline=killed + 300)
        kept = client.threads.get_state(thread)["values"]["messages"]
    print(
        f"\nAegra, kill -9 mid-answer on the real model: next run served {next_served:.1f} s",
        end=" ",
    )
    print(
        f"later; the killed run ended {status!r} {time.monotonic() - killed:.0f} s after the kill"
    )
    assert isinstance(served, dict) and served["answer"]
    assert status not in ("pending", "running"), status
    assert kept[0]["content"] == SIMPLE and "14" in kept[1]["content"]
