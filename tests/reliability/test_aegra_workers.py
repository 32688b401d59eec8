"""The agent on several Aegra processes sharing one PostgreSQL and Redis (tests/aegra.py).

Process A executes no runs: each run it takes is executed by B or C, which it learns of only
through the database and Redis. Streams, interrupts, concurrent users and a worker killed with
kill -9 are checked across them, on the scripted models the server tests use.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from aegra import Worker, bearer, deployment, executed_by, run_ended
from langgraph_sdk import get_sync_client
from servers import ROOT, clarify_then_resume
from tenants import QUESTIONS, build_kb, leaks

pytestmark = pytest.mark.server

MODULE = ROOT / "tests" / "server_graph.py"
GRAPHS = {
    "scripted": f"{MODULE}:graph",
    "slow": f"{MODULE}:slow_graph",
    "tenants": f"{MODULE}:tenants_graph",
}
USERS = 12
TURNS = 3
GROUPS = ([], ["hr"], ["fin"])


@pytest.fixture(scope="module")
def workers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Worker]]:
    """A (API only), B and C (two run executors each), on the tenants' knowledge base."""
    work = tmp_path_factory.mktemp("aegra")
    build_kb(work / "kb", work / "corpus")
    env = {"TENANTS_KB": str(work / "kb"), "KNOWLEDGE_URI": ""}
    with deployment(work / "deploy", GRAPHS, workers=3, api_only=1, executors=2, env=env) as w:
        yield w


def test_a_run_taken_by_the_api_process_runs_elsewhere_and_streams_through_it(
    workers: list[Worker],
) -> None:
    a = workers[0]
    client = get_sync_client(url=a.url, headers=bearer("alice"))
    thread = client.threads.create()["thread_id"]
    parts = list(
        client.runs.stream(
            thread,
            "scripted",
            input={"question": "How big is the Zephyr X2 kettle?"},
            stream_mode=["messages-tuple", "values"],
        )
    )
    run_id = next(p.data["run_id"] for p in parts if p.event == "metadata")
    tokens = [p for p in parts if p.event == "messages"]
    final = [p.data for p in parts if p.event == "values"][-1]
    assert tokens, [p.event for p in parts]
    assert final["answer"] and final["sources"][0]["title"] == "Zephyr X2"
    ran = executed_by(workers, run_id)
    assert ran and a not in ran, ran  # executed by B or C, streamed through A
    state = get_sync_client(url=workers[2].url, headers=bearer("alice")).threads.get_state(thread)
    assert [m["type"] for m in state["values"]["messages"]] == ["human", "ai"]


def test_the_clarify_interrupt_raised_through_one_is_resumed_through_another(
    workers: list[Worker],
) -> None:
    first = get_sync_client(url=workers[1].url, headers=bearer("alice"))
    other = get_sync_client(url=workers[2].url, headers=bearer("alice"))
    thread = clarify_then_resume(first, other)
    assert len(other.runs.list(thread)) == 2  # the interrupted run and its resumption


def test_context_reaches_the_run_from_an_assistant_and_from_the_run(workers: list[Worker]) -> None:
    """Context set on an assistant made through A, and on a run, is what the run on B reads."""
    client = get_sync_client(url=workers[0].url, headers=bearer("alice"))
    narrow = client.assistants.create(graph_id="scripted", context={"k": 1}, name="k1")
    question = {"question": "How big is the Zephyr X2 kettle?"}
    by_assistant = client.runs.wait(None, narrow["assistant_id"], input=question)
    assert isinstance(by_assistant, dict) and len(by_assistant["sources"]) == 1
    by_run = client.runs.wait(None, "scripted", input=question, context={"k": 2})
    assert isinstance(by_run, dict) and len(by_run["sources"]) == 2
    refused = httpx.post(
        f"{workers[0].url}/runs/wait",
        json={"assistant_id": "scripted", "input": question, "context": {"k": -5}},
        headers=bearer("alice"),
        timeout=30,
    )
    assert refused.status_code == 422 and "k must be between 1 and 20" in refused.text


def test_twelve_users_three_turns_at_once_across_the_workers(
    workers: list[Worker], tally: Callable[..., None]
) -> None:
    """Each user's turns go to the processes in turn; nothing is lost, nobody reads another's."""
    users = [(f"user{i}", GROUPS[i % len(GROUPS)]) for i in range(USERS - 2)]
    users += [("alice", []), ("bob", ["fin"])]
    from adaptive_rag.core.access import Reader

    def converse(index: int) -> dict[str, int]:
        name, groups = users[index]
        headers = bearer(name, groups)
        counts = {"runs": 0, "answers": 0, "errors": 0, "leaks": 0}
        thread = httpx.post(f"{workers[0].url}/threads", json={}, headers=headers, timeout=30)
        thread_id = thread.json()["thread_id"]
        for turn in range(TURNS):
            url = workers[(index + turn) % len(workers)].url
            question = QUESTIONS[(index + turn) % len(QUESTIONS)]
            response = httpx.post(
                f"{url}/threads/{thread_id}/runs/wait",
                json={"assistant_id": "tenants", "input": {"question": question}},
                headers=headers,
                timeout=300,
            )
            counts["runs"] += 1
            ok = response.status_code == 200 and bool(response.json().get("answer"))
            counts["answers" if ok else "errors"] += 1
            counts["leaks"] += len(leaks(response.text, Reader(name, tuple(groups))))
        state = httpx.get(
            f"{workers[-1].url}/threads/{thread_id}/state", headers=headers, timeout=30
        )
        kept = state.json()["values"]["messages"]
        counts["lost"] = 2 * TURNS - len(kept)
        return counts

    with ThreadPoolExecutor(max_workers=USERS) as pool:
        results = list(pool.map(converse, range(USERS)))
    total = {key: sum(r[key] for r in results) for key in results[0]}
    tally(**total)
    print(f"\n{USERS} users x {TURNS} turns at once over {len(workers)} Aegra processes: {total}")
    assert total == {
        "runs": USERS * TURNS,
        "answers": USERS * TURNS,
        "errors": 0,
        "leaks": 0,
        "lost": 0,
    }


def test_a_worker_killed_mid_run_loses_no_conversation_and_the_others_serve_on(
    tmp_path: Path, tally: Callable[..., None]
) -> None:
    """kill -9 the process executing a turn: the run ends (error, or run again), the thread keeps
    its earlier turn, and the survivor serves the next run."""
    with deployment(tmp_path / "kill", GRAPHS, workers=3, api_only=1, executors=1) as workers:
        a = workers[0]
        client = get_sync_client(url=a.url, headers=bearer("alice"))
        thread = client.threads.create()["thread_id"]
        first = client.runs.wait(
            thread, "scripted", input={"question": "How big is the Zephyr X2?"}
        )
        assert isinstance(first, dict) and first["answer"]
        run = client.runs.create(thread, "slow", input={"question": "And how long to boil?"})
        victim = executed_by(workers, run["run_id"], wait=30.0)
        assert victim and victim[0] is not a, "no process took the run"
        time.sleep(1.0)  # the slow model is writing its answer
        killed = time.monotonic()
        os.killpg(victim[0].pid, signal.SIGKILL)
        survivor = next(w for w in workers[1:] if w is not victim[0])

        other = client.threads.create()["thread_id"]
        served = _first_served(survivor.url, other, deadline=killed + 120)
        next_served = time.monotonic() - killed

        ended = run_ended(client, thread, run["run_id"], deadline=killed + 180)
        ended_after = time.monotonic() - killed
        rerun = [w.name for w in workers if w is not victim[0] and w.ran(run["run_id"])]
        again = client.runs.wait(thread, "scripted", input={"question": "And how long to boil?"})
        kept = client.threads.get_state(thread)["values"]["messages"]
    print(
        f"\nkill -9 of the executing worker: next run served {next_served:.1f} s later;"
        f" the killed run ended as {ended!r} {ended_after:.1f} s later, run again by {rerun or 'none'}"
    )
    assert served and ended in ("error", "success", "interrupted", "timeout"), ended
    assert isinstance(again, dict) and again["answer"]
    assert kept[0]["content"] == "How big is the Zephyr X2?" and kept[1]["type"] == "ai"
    assert kept[-2]["content"] == "And how long to boil?" and kept[-1]["type"] == "ai"
    tally(runs=4, faults=1, answers=2 + int(served), errors=int(ended != "success"), lost=0)


def _first_served(url: str, thread: str, deadline: float) -> bool:
    """Ask on a new thread until a run is answered (the survivor serving), or the deadline."""
    while time.monotonic() < deadline:
        try:
            response = httpx.post(
                f"{url}/threads/{thread}/runs/wait",
                json={
                    "assistant_id": "scripted",
                    "input": {"question": "How big is the Zephyr X2?"},
                },
                headers=bearer("alice"),
                timeout=60,
            )
            if response.status_code == 200 and response.json().get("answer"):
                return True
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    return False
