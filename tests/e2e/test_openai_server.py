"""The hosted-model path against a real OpenAI-compatible server: llama.cpp's, on the embedded GGUF.

The agent is pointed at the server as a user would point it (OPENAI_BASE_URL and
ADAPTIVE_RAG_CHAT_MODEL=openai:<name>). Each way the real server differs from the offline fake has a
test here that fails without its workaround: max_tokens only as `extra_body` (it ignores
max_completion_tokens), JSON mode (json_schema is a 500), calls streamed under a cancellable run (it
stops a reply only when a streamed connection closes), `--interrupt_requests False` (else a second
request cuts a streamed reply short), and no usage in streams and no cached-token count.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import pytest
from adaptive_rag import Context, build_graph
from adaptive_rag.knowledge.store import KnowledgeBase
from adaptive_rag.providers import calls, chat, replies
from adaptive_rag.providers.local_weights import model_path
from fakes import SAMPLE
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import HumanMessage
from langchain_core.outputs import LLMResult
from servers import langgraph_dev, llama_cpp_server

pytestmark = pytest.mark.local_model

if not os.environ.get("CI") and not all(
    importlib.util.find_spec(name) for name in ("llama_cpp", "fastapi", "starlette_context")
):
    pytest.skip("llama.cpp's server needs the `local` extra", allow_module_level=True)

ALIAS = "qwen2.5-coder-1.5b-instruct"
"""The name the server answers to: the agent's ADAPTIVE_RAG_CHAT_MODEL is openai:<this>."""
JUDGES = ("classify", "decompose", "grade_documents", "assess", "generate", "self_check")
KB = "Quillon Labs: Kestrel sensors, Heron hubs, warranty, returns, support"
SIMPLE = "How long does the Kestrel K2 battery last at the default reporting interval?"
COMPARE = "Compare the warranty of the Kestrel sensors and the Heron hub."


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """One llama.cpp server for the test run (its URL and PID), stopped by its PID at the end."""
    folder = tmp_path_factory.mktemp("llama")
    with llama_cpp_server(folder, model_path(False), ALIAS) as (url, proc):
        yield url, proc.pid


@pytest.fixture(scope="module")
def kb_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hosted-kb")
    shutil.copytree(SAMPLE, folder / "docs")
    KnowledgeBase.open(str(folder / "kb"), "quillon", create=True).ingest(
        [str(folder / "docs")], False
    )
    return folder / "kb"


@pytest.fixture
def hosted(server: tuple[str, int], monkeypatch: pytest.MonkeyPatch) -> str:
    """Point the agent at the server through the settings a user sets; return its URL."""
    monkeypatch.setenv("OPENAI_BASE_URL", server[0])
    monkeypatch.setenv("ADAPTIVE_RAG_CHAT_MODEL", f"openai:{ALIAS}")
    monkeypatch.setattr(chat, "_MODELS", {})  # built once per spec: build this one afresh
    return server[0]


def context(kb_dir: Path, **settings: Any) -> Context:
    return Context(
        kb_path=str(kb_dir), collection="quillon", kb_description=KB, answer_cache=False, **settings
    )


class Calls(BaseCallbackHandler):
    """Each model call of a run: its node, the tokens it streamed, and what it reported."""

    def __init__(self, watch: str = "", on_event: Any = None) -> None:
        self.calls: dict[UUID, dict[str, Any]] = {}
        self.watch, self.on_event = watch, on_event
        self.lock = threading.Lock()  # parallel branches start calls at once

    def on_chat_model_start(
        self, serialized: Any, messages: Any, *, run_id: UUID, **kwargs: Any
    ) -> None:
        node = (kwargs.get("metadata") or {}).get("langgraph_node", "")
        with self.lock:
            self.calls[run_id] = {"node": node, "times": [], "ended": False, "message": None}

    def on_llm_new_token(self, token: str, *, run_id: UUID, **kwargs: Any) -> None:
        call = self.calls[run_id]
        call["times"].append(time.monotonic())
        if call["node"] == self.watch and self.on_event:
            self.on_event("token")

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        call = self.calls[run_id]
        call["ended"], call["message"] = True, getattr(response.generations[0][0], "message", None)
        if call["node"] == self.watch and self.on_event:
            self.on_event("end")

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        self.calls[run_id]["ended"] = True

    def of(self, node: str) -> list[dict[str, Any]]:
        return [call for call in self.calls.values() if call["node"] == node]


FREED_WITHIN = 1.0
"""Seconds from a cancel until the server has stopped writing the cancelled reply."""
TOKENS_WITHIN = 3
"""Or, on a machine so busy that a token takes longer than a third of that, this many tokens."""


def pace(times: list[float]) -> float:
    """Return the longest of the last two gaps between streamed tokens (the server's pace now)."""
    return max(later - earlier for earlier, later in zip(times[-3:], times[-2:], strict=False))


def freed_within(times: list[float]) -> float:
    """Return the seconds a cancel may take to stop the server, at the pace it was writing."""
    return max(FREED_WITHIN, TOKENS_WITHIN * pace(times))


def busy_until(pid: int, started: float, quiet: float = 0.3, limit: float = 60.0) -> float:
    """Return seconds from `started` until the process last used CPU before `quiet` idle seconds.

    CPU time, not a request's wall time: on a shared 2-core machine another job can make even a
    short prompt take seconds, but it cannot make an idle server compute.
    """

    def ticks() -> int:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime

    last, since = ticks(), time.monotonic()
    while time.monotonic() - started < limit:
        time.sleep(0.05)
        now = ticks()
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return max(since - started, 0.0)
    raise AssertionError(f"the server computed for {limit:g} s after the cancel")


def first_token_after(url: str) -> float:
    """Ask the server for a short streamed reply; return the seconds to its first token."""
    started = time.monotonic()
    body = {
        "model": ALIAS,
        "messages": [{"role": "user", "content": f"Say OK. ({time.monotonic_ns()})"}],
        "max_tokens": 2,
        "stream": True,
    }
    with httpx.stream("POST", f"{url}/chat/completions", json=body, timeout=120) as response:
        for line in response.iter_lines():
            if '"content"' in line:
                return time.monotonic() - started
    raise AssertionError("the server streamed no token")


def test_every_node_reads_its_reply_from_the_server(hosted: str, kb_dir: Path) -> None:
    graph, calls = build_graph(), Calls()
    ctx = context(kb_dir)  # every retrieval is judged and every answer checked
    outs = [
        graph.invoke({"question": q}, {"callbacks": [calls]}, context=ctx)
        for q in (SIMPLE, COMPARE)
    ]
    for out in outs:
        print(out["route"], out["diagnostics"], out["answer"][:160])
        diagnostics = out["diagnostics"]
        assert diagnostics["steps"][-1] == "finalize" and not out["failures"], out["failures"]
        assert not [n for n in diagnostics["notes"] if n.startswith(JUDGES)], diagnostics["notes"]
        assert diagnostics["tokens_in"] > 0 and diagnostics["tokens_out"] > 0
        assert diagnostics["tokens_cached"] == 0  # the server reports no prompt_tokens_details
    asked = {call["node"] for call in calls.calls.values()}
    assert set(JUDGES) <= asked, asked
    simple = outs[0]
    assert "14" in simple["answer"] and simple["route"]["category"] == "simple"
    assert outs[1]["route"]["category"] == "complex"
    assert outs[1]["diagnostics"]["steps"].count("sub_question") >= 2
    # assess's odds come from the server's logprobs: a probability, not the text's bare 1 or 0
    support = simple["diagnostics"]["support"]
    assert support is not None and 0.0 < support < 1.0, support
    (assess,) = calls.of("assess")
    assert assess["message"].response_metadata["logprobs"]["content"]
    assert calls.token_usage(assess["message"])[1] == 1  # one token, not the call's 1024 cap


def test_a_yes_no_gets_one_token(hosted: str) -> None:
    """assess binds max_tokens=1; the server reads it only from extra_body (the model's cap)."""
    chatty = [HumanMessage("Is Paris the capital of France? Reply yes or no, then explain why.")]
    reply = calls.call_yes_no(chat.load_chat_model("auto"), chatty)
    assert reply.odds and reply.tokens_out == 1 and reply.text.lower() == "yes", reply


def test_every_reply_gets_its_cap(hosted: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server ignores max_completion_tokens: the cap travels as extra_body.max_tokens."""
    monkeypatch.setattr(chat, "MAX_TOKENS", 8)
    story = [HumanMessage("Write a 200-word story about a lighthouse.")]
    capped = calls.call_model(chat.load_chat_model("auto"), story)
    assert capped.tokens_out == 8, capped


def test_json_schema_fails_on_the_server_so_judges_use_json_mode(hosted: str) -> None:
    """What `constrain_json` avoids: the server refuses response_format json_schema."""
    from adaptive_rag.nodes.grade_documents import Grades

    model = chat.load_chat_model("auto")
    question = [HumanMessage('Grade two documents as JSON {"grades": [...]}: yes or no each.')]
    strict = model.with_structured_output(Grades, method="json_schema")
    with pytest.raises(Exception, match="json_schema|500"):
        strict.invoke(question)
    reply = calls.call_model(model, question, Grades)
    assert replies.parse_json(reply.text, Grades).grades


def test_two_streams_at_once_both_finish(hosted: str) -> None:
    """A second request must wait its turn, not cut the streamed reply before it short."""
    model = chat.load_chat_model("auto").bind(**calls.at_most(chat.load_chat_model("auto"), 24))
    finished: list[str | None] = []

    def stream(topic: str) -> None:
        last = None
        for chunk in model.stream([HumanMessage(f"Write a long story about {topic}.")]):
            last = chunk.response_metadata.get("finish_reason") or last
        finished.append(last)

    threads = [threading.Thread(target=stream, args=(t,)) for t in ("a lighthouse", "a river")]
    for thread in threads:
        thread.start()
        time.sleep(0.5)
    for thread in threads:
        thread.join(timeout=300)
    assert finished == ["length", "length"], finished  # interrupted streams end without a reason


def test_a_run_cancelled_during_a_json_judgment_frees_the_server(
    hosted: str, server: tuple[str, int], kb_dir: Path
) -> None:
    """What runs.cancel does on `langgraph dev`: cancel the async run at decompose's first token."""
    graph, ctx = build_graph(), context(kb_dir)

    async def main() -> tuple[float, int, Calls]:
        loop = asyncio.get_running_loop()
        seen: asyncio.Queue[str] = asyncio.Queue()
        calls = Calls("decompose", lambda event: loop.call_soon_threadsafe(seen.put_nowait, event))

        async def consume() -> None:
            async for _ in graph.astream(
                {"question": COMPARE}, {"callbacks": [calls]}, context=ctx, stream_mode="updates"
            ):
                pass

        task = asyncio.create_task(consume())
        for _ in range(4):  # the reply has begun: its role, then tokens at the server's pace
            event = await asyncio.wait_for(seen.get(), timeout=600)
            assert event == "token", "decompose's reply was not streamed: a cancel cannot stop it"
        task.cancel()
        started, (decompose,) = time.monotonic(), calls.of("decompose")
        written = len(decompose["times"])
        return await asyncio.to_thread(busy_until, server[1], started), written, calls

    busy, at_cancel, calls = asyncio.run(main())
    then = first_token_after(hosted)
    (decompose,) = calls.of("decompose")
    times = decompose["times"][:at_cancel]
    print(f"\ncancel in decompose's reply ({pace(times):.2f} s a token): the server", end=" ")
    print(f"computed {busy:.2f} s more; a request then got its first token in {then:.2f} s")
    assert len(decompose["times"]) - at_cancel <= 2, decompose  # the client stopped reading
    assert busy < freed_within(times), busy  # and the server stopped writing


def test_the_answer_streams_over_langgraph_dev_and_a_cancel_frees_the_server(
    hosted: str, server: tuple[str, int], kb_dir: Path, tmp_path: Path
) -> None:
    from langgraph_sdk import get_sync_client

    env = {
        "OPENAI_BASE_URL": hosted,
        "ADAPTIVE_RAG_CHAT_MODEL": f"openai:{ALIAS}",
        "ADAPTIVE_RAG_DATA": str(tmp_path / "data"),
    }
    settings = {
        "kb_path": str(kb_dir),
        "collection": "quillon",
        "kb_description": KB,
        "answer_cache": False,
    }
    with langgraph_dev(tmp_path, {}, env) as (url, _):
        client = get_sync_client(url=url)
        thread = client.threads.create()["thread_id"]
        chunks, values = [], []
        for part in client.runs.stream(
            thread,
            "agent",
            input={"messages": [{"role": "user", "content": SIMPLE}]},
            context=settings,
            stream_mode=["messages-tuple", "values"],
        ):
            if part.event == "messages" and part.data[0]["type"].lower().startswith("ai"):
                chunks.append(part.data)
            elif part.event == "values":
                values.append(part.data)
        assert {meta["langgraph_node"] for _, meta in chunks} == {"generate"}, chunks[:3]
        assert len({message["id"] for message, _ in chunks}) == 1
        assert len(chunks) >= 5  # token by token, not the answer in one piece
        streamed = "".join(message["content"] for message, _ in chunks).strip()
        final = values[-1]
        assert streamed and streamed in final["messages"][-1]["content"] and "14" in streamed
        assert not final["failures"], final["failures"]

        thread = client.threads.create()["thread_id"]
        run_id, times = "", []
        for part in client.runs.stream(
            thread,
            "agent",
            input={
                "messages": [{"role": "user", "content": "Explain the whole warranty in detail."}]
            },
            context={**settings, "declines": "never"},
            stream_mode="messages-tuple",
        ):
            if part.event == "metadata":
                run_id = part.data["run_id"]
            elif part.event == "messages" and part.data[0]["type"].lower().startswith("ai"):
                times.append(time.monotonic())
                if len(times) == 4:  # the answer is being written
                    break
        started = time.monotonic()
        client.runs.cancel(thread, run_id)
        busy = busy_until(server[1], started)
        then = first_token_after(hosted)
    print(f"\nruns.cancel mid-answer ({pace(times):.2f} s a token): the server", end=" ")
    print(f"computed {busy:.2f} s more; a request then got its first token in {then:.2f} s")
    assert busy < freed_within(times), busy
