"""Embedding model, Chroma (embedded and server) and Tavily failing: every run still ends honestly."""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from adaptive_rag import Context, Services, build_graph
from adaptive_rag import services as retrieval
from adaptive_rag.knowledge import embeddings
from adaptive_rag.knowledge.opening import open_store
from adaptive_rag.knowledge.retriever import HybridRetriever
from adaptive_rag.providers.web import TavilySearch
from fake_sources import SAMPLE, HashEmbeddings
from fakes import ScriptedChatModel, ScriptedJudge
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from servers import chroma_process, free_port, http_server, silent_server

QUESTION = "What is the restocking fee for returns?"


class FlakyEmbeddings(HashEmbeddings):
    """Hash embeddings that can be told to fail or to be slow."""

    fail: bool = False
    delay: float = 0.0

    def embed_query(self, text: str) -> list[float]:
        time.sleep(self.delay)
        if self.fail:
            raise ConnectionError("embedding service unreachable")
        return super().embed_query(text)


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADAPTIVE_RAG_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("CHROMA_HOST", raising=False)
    monkeypatch.setattr(embeddings, "_CACHE", {"local:multilingual-e5-small": HashEmbeddings()})
    monkeypatch.setattr(retrieval, "_OPEN", {})


def sample_kb(path: Path, embedder: Any = None) -> Any:
    kb = open_store(  # PostgreSQL when the test asks for that `store`
        str(path), "faults", "test:hash", create=True, embeddings=embedder or HashEmbeddings()
    )
    kb.ingest([str(SAMPLE)], progress=False)
    return kb


def two_turns(
    services: Services, ctx: Context | None = None, question: str = QUESTION
) -> tuple[dict[str, Any], Any]:
    """Ask an earlier question and then `question` on one thread; return the last output, graph."""
    graph = build_graph(InMemorySaver(), services=services)
    config = {"configurable": {"thread_id": "t"}}
    graph.invoke({"question": "Hello!"}, config, context=ctx)
    out = graph.invoke({"question": question}, config, context=ctx)
    kinds = [type(m) for m in graph.get_state(config).values["messages"]]
    assert kinds == [HumanMessage, AIMessage, HumanMessage, AIMessage], "history lost"
    assert out["answer"].strip() and out["diagnostics"]["steps"][-1] == "finalize"
    return out, graph


def test_embedding_failure_falls_back_to_keyword_search(
    tmp_path: Path, tally: Any, store: str
) -> None:
    embedder = FlakyEmbeddings()
    kb = sample_kb(tmp_path / "kb", embedder)
    embedder.fail = True
    model = ScriptedChatModel.with_script()
    out, _ = two_turns(
        Services(chat_model=model, knowledge=kb, retriever=HybridRetriever(kb=kb), no_web=True)
    )
    notes = " ".join(out["diagnostics"]["notes"])
    assert "vector search failed (ConnectionError: embedding service unreachable)" in notes
    assert out["sources"] and out["sources"][0]["title"] == "Returns"  # BM25 alone found it
    assert "grade_documents" in out["diagnostics"]["steps"]  # no 'both agree' shortcut now
    tally(faults=1)


@pytest.mark.usefixtures("heuristic_confidence")
@pytest.mark.parametrize(
    "question", [QUESTION, "Compare the returns policy and the warranty of the Heron hub"]
)
def test_embedded_chroma_down_answers_without_the_knowledge_base(
    question: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tally: Any
) -> None:
    kb = sample_kb(tmp_path / "kb")

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("database disk image is malformed")

    monkeypatch.setattr(type(kb._chunks), "query", broken)
    monkeypatch.setattr(type(kb._chunks), "get", broken)
    model = ScriptedChatModel.with_script()
    out, _ = two_turns(
        Services(chat_model=model, knowledge=kb, retriever=HybridRetriever(kb=kb), no_web=True),
        question=question,
    )
    notes = " ".join(out["diagnostics"]["notes"])
    assert "malformed" in notes and ("unavailable" in notes or "retrieval failed" in notes)
    assert out["decline"]["reason"] == "no_knowledge_base"
    assert out["answer"].startswith("I cannot answer from the knowledge base: ")
    assert out["sources"] == [] and out["confidence"] <= 0.2
    tally(faults=1)


def test_slow_embedded_search_still_ends(tmp_path: Path, tally: Any, store: str) -> None:
    embedder = FlakyEmbeddings()
    kb = sample_kb(tmp_path / "kb", embedder)
    embedder.delay = 1.0
    model = ScriptedChatModel.with_script()
    started = time.perf_counter()
    out, _ = two_turns(
        Services(chat_model=model, knowledge=kb, retriever=HybridRetriever(kb=kb), no_web=True)
    )
    assert out["sources"] and time.perf_counter() - started >= 1.0
    tally(faults=1)


def test_chroma_server_down_is_an_honest_answer(
    monkeypatch: pytest.MonkeyPatch, tally: Any
) -> None:
    monkeypatch.setenv("CHROMA_HOST", "127.0.0.1")
    monkeypatch.setenv("CHROMA_PORT", str(free_port()))  # nobody listens
    out, _ = two_turns(Services(chat_model=ScriptedChatModel.with_script(), no_web=True))
    assert any(f["node"] == "retrieve" for f in out["failures"])
    assert out["decline"]["reason"] == "no_knowledge_base"
    assert "Chroma server 127.0.0.1" in out["answer"] and "not answering" in out["answer"]
    tally(faults=1)


def test_hung_chroma_server_times_out_instead_of_hanging(
    monkeypatch: pytest.MonkeyPatch, tally: Any
) -> None:
    with silent_server() as port:
        monkeypatch.setenv("CHROMA_HOST", "127.0.0.1")
        monkeypatch.setenv("CHROMA_PORT", str(port))
        monkeypatch.setenv("CHROMA_TIMEOUT", "1")
        started = time.perf_counter()
        out, _ = two_turns(Services(chat_model=ScriptedChatModel.with_script(), no_web=True))
        elapsed = time.perf_counter() - started
    assert any(f["node"] == "retrieve" for f in out["failures"])
    assert elapsed < 30, f"a hung server held the run for {elapsed:.0f} s"
    tally(faults=1)


@pytest.fixture
def chroma(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    port = free_port()
    folder = tmp_path / "chroma"
    folder.mkdir()
    monkeypatch.setenv("CHROMA_HOST", "127.0.0.1")
    monkeypatch.setenv("CHROMA_PORT", str(port))
    monkeypatch.setenv("CHROMA_TIMEOUT", "2")
    with chroma_process(folder, port) as proc:
        yield proc, folder, port


@pytest.mark.server
def test_chroma_server_frozen_then_killed_then_restarted(chroma: Any, tally: Any) -> None:
    proc, folder, port = chroma
    kb = sample_kb(Path(""))  # on the server (CHROMA_HOST)
    chunks = kb.count()
    model = ScriptedChatModel.with_script()
    services = Services(
        chat_model=model, knowledge=kb, retriever=HybridRetriever(kb=kb), no_web=True
    )
    graph = build_graph(InMemorySaver(), services=services)
    config = {"configurable": {"thread_id": "server"}}

    def ask() -> dict[str, Any]:
        out = graph.invoke({"question": QUESTION}, config)
        assert out["answer"].strip() and out["diagnostics"]["steps"][-1] == "finalize"
        return out

    assert ask()["sources"][0]["title"] == "Returns"
    os.killpg(proc.pid, signal.SIGSTOP)  # slow: the server accepts but does not answer
    started = time.perf_counter()
    frozen = ask()
    assert time.perf_counter() - started < 30
    assert any(f["node"] == "retrieve" for f in frozen["failures"])
    os.killpg(proc.pid, signal.SIGCONT)
    assert ask()["sources"], "the client did not recover after the server woke up"
    os.killpg(proc.pid, signal.SIGKILL)  # down
    proc.wait(timeout=20)
    down = ask()
    assert any(f["node"] == "retrieve" for f in down["failures"])
    with chroma_process(folder, port):  # restarted on the same data
        assert ask()["sources"][0]["title"] == "Returns"
        after = kb.count()
    assert after == chunks  # nothing lost
    messages = graph.get_state(config).values["messages"]
    assert len(messages) == 2 * 5 and all(m.content for m in messages)
    tally(faults=3, lost=chunks - after)


TAVILY_FAULTS: dict[str, tuple[int, bytes, float]] = {
    "rate limit": (429, b'{"detail": {"error": "rate limit exceeded"}}', 0.0),
    "server error": (500, b"<html>Internal Server Error</html>", 0.0),
    "error payload": (200, b'{"error": "query is invalid"}', 0.0),
    "not json": (200, b"<html>captive portal</html>", 0.0),
    "bad key": (401, b'{"detail": {"error": "Unauthorized: missing or invalid API key."}}', 0.0),
    "timeout": (200, b'{"results": []}', 3.0),
}


@pytest.mark.parametrize("fault", sorted(TAVILY_FAULTS))
def test_tavily_failures_continue_from_the_knowledge_base(
    fault: str, tmp_path: Path, tally: Any
) -> None:
    status, body, delay = TAVILY_FAULTS[fault]
    kb = sample_kb(tmp_path / "kb")
    model = ScriptedChatModel.with_script()
    with http_server(lambda *_: (status, body), delay=delay) as url:
        web = TavilySearch("tvly-test-key-0000000000", timeout=1, base_url=url)
        out, _ = two_turns(
            Services(
                chat_model=model,
                knowledge=kb,
                retriever=HybridRetriever(kb=kb),
                web_search=web,
                relevance=ScriptedJudge([0.0]),  # nothing relevant: the web is searched
            ),
            Context(max_rewrites=0),
        )
    notes = " ".join(out["diagnostics"]["notes"])
    assert (
        "web_search: web failed (WebSearchError" in notes
        and out["diagnostics"]["web_searches"] == 1
    )
    assert "tvly-test-key" not in json.dumps(out, default=str)
    tally(faults=1)


def test_tavily_unreachable_on_a_realtime_question_says_so_and_uses_the_kb(
    tmp_path: Path, tally: Any
) -> None:
    kb = sample_kb(tmp_path / "kb")
    nobody = f"http://127.0.0.1:{free_port()}"
    web = TavilySearch("tvly-test-key-0000000000", timeout=1, base_url=nobody)
    model = ScriptedChatModel.with_script()
    graph = build_graph(
        services=Services(
            chat_model=model, knowledge=kb, retriever=HybridRetriever(kb=kb), web_search=web
        )
    )
    out = graph.invoke({"question": "What is the latest news about returns today?"})
    assert out["route"]["category"] == "realtime"
    assert "web_search: web failed (WebSearchError: ConnectionError" in " ".join(
        out["diagnostics"]["notes"]
    )
    assert "The web could not be searched" in out["answer"]
    assert out["sources"] and all(s["origin"] == "kb" for s in out["sources"])
    tally(faults=1)
