"""Bad input gets a clear refusal (CLI: message and exit 2) and never corrupts the thread."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from adaptive_rag import Services, build_graph
from adaptive_rag.cli import main as cli
from adaptive_rag.knowledge import embeddings
from adaptive_rag.schema.checks import clean_question
from adaptive_rag.schema.state import REJECTED
from fake_sources import HashEmbeddings, KeywordRetriever, kb_docs
from fakes import ScriptedChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from typer.testing import CliRunner

HUGE = "How big is the kettle? " * 4500  # about 100 KB
BINARY = "".join(chr(c) for c in range(32)) * 40 + "kettle"
INVALID_UTF8 = b"How big \xff\xfe is it?".decode("utf-8", "surrogateescape")

BAD: dict[str, tuple[Any, str]] = {
    "empty": ("", "no question text"),
    "whitespace": (" \n\t ", "no question text"),
    "100 KB": (HUGE, "too long"),
    "binary junk": (BINARY, "binary data"),
    "invalid UTF-8": (INVALID_UTF8, "not valid UTF-8"),
    "a number": (12345, "must be text, not int"),
    "a list": (["How big is the kettle?"], "must be text, not list"),
    "a dict": ({"text": "hi"}, "must be text, not dict"),
}


def graph_with_model() -> tuple[Any, ScriptedChatModel]:
    model = ScriptedChatModel.with_script()
    services = Services(chat_model=model, retriever=KeywordRetriever(docs=kb_docs()), no_web=True)
    return build_graph(InMemorySaver(), services=services), model


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_question_is_refused_without_a_model_call_and_the_thread_survives(
    name: str, tally: Any
) -> None:
    question, message = BAD[name]
    graph, model = graph_with_model()
    config = {"configurable": {"thread_id": name}}
    first = graph.invoke({"question": "How big is the Zephyr X2 kettle?"}, config)
    calls = len(model.calls)
    out = graph.invoke({"question": question}, config)
    assert message in out["answer"] and out["confidence"] == 0.0 and out["verified"] is False
    assert len(model.calls) == calls  # refused before any model call
    # the rejected input is not kept: a short stand-in marks the turn, and history skips it
    messages = graph.get_state(config).values["messages"]
    assert sum(len(str(m.content)) for m in messages) < 2000
    assert [m.name for m in messages[2:]] == [REJECTED, REJECTED]
    follow = graph.invoke({"question": "And how long does it take to boil?"}, config)
    assert "rewrite_with_history" in follow["diagnostics"]["steps"]
    rewrite_prompt = [user for role, user in model.calls if role == "rewrite"][-1]
    assert "input rejected" not in rewrite_prompt and message not in rewrite_prompt
    assert first["answer"] in rewrite_prompt
    tally(faults=1, lost=2 - len([m for m in messages if not m.name]))


def test_bad_input_sent_as_messages_is_replaced_not_appended() -> None:
    graph, _ = graph_with_model()
    config = {"configurable": {"thread_id": "m"}}
    graph.invoke({"messages": [HumanMessage(HUGE)]}, config)
    messages = graph.get_state(config).values["messages"]
    assert [type(m) for m in messages] == [HumanMessage, AIMessage]
    assert messages[0].content.startswith("[input rejected: The question is too long")


def test_a_refused_question_is_consumed_and_does_not_shadow_the_next_turn() -> None:
    graph, _ = graph_with_model()
    config = {"configurable": {"thread_id": "shadow"}}
    graph.invoke({"question": ["not", "text"]}, config)
    out = graph.invoke({"messages": [HumanMessage("How big is the Zephyr X2 kettle?")]}, config)
    assert out["route"]["category"] == "simple" and out["sources"]


def test_control_characters_are_stripped_from_a_real_question() -> None:
    assert clean_question("How big\x00 is the\x07 kettle?", 4000) == (
        "How big is the kettle?",
        "",
    )


runner = CliRunner()


@pytest.fixture
def kb_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("ADAPTIVE_RAG_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("CHROMA_HOST", raising=False)
    monkeypatch.setattr(embeddings, "_CACHE", {"local:multilingual-e5-small": HashEmbeddings()})
    return str(tmp_path / "kb")


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["  "], None, "no question text"),
        ([HUGE], None, "too long"),
        ([BINARY], None, "binary data"),
        ([INVALID_UTF8], None, "not valid UTF-8"),
        (["-"], b"How big \xff\xfe is it?", "not valid UTF-8"),
        (["-"], HUGE.encode(), "too long"),
        (["-"], bytes(range(256)) * 400, "not valid UTF-8"),
        (["hi", "--thread", "no-such-thread"], None, "no conversation with thread id"),
        (["hi", "--set", "k=0"], None, "k must be between"),
    ],
)
def test_cli_refuses_bad_input_with_exit_2(
    kb_env: str, args: list[str], stdin: bytes | None, message: str, tally: Any
) -> None:
    result = runner.invoke(cli.app, ["ask", *args, "--kb-path", kb_env], input=stdin)
    assert result.exit_code == cli.EXIT_BAD_CONFIG, result.output
    assert message in result.output
    tally(faults=1)


def test_cli_chat_refuses_an_unknown_thread(kb_env: str) -> None:
    result = runner.invoke(cli.app, ["chat", "--thread", "nope", "--kb-path", kb_env], input="\n")
    assert result.exit_code == cli.EXIT_BAD_CONFIG and "no conversation" in result.output


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"input": {"question": 123}}, "input.question must be a string, not int"),
        ({"input": {"question": ["a"]}}, "input.question must be a string, not list"),
        ({"input": "hello"}, "input must be an object"),
        ({"input": {"messages": 5}}, "input.messages must be a list"),
        ({"input": {"messages": [{"role": "user", "content": 5}]}}, "input.messages: "),
        ({"input": {"question": HUGE}}, "too long"),
        ({"input": {"question": BINARY}}, "binary data"),
        ({"input": {"question": "hi"}, "context": {"k": "abc"}}, "context: k must be a number"),
        ({"input": {"question": "hi"}, "context": {"nope": 1}}, "context: "),
        ({"input": {"question": "hi"}, "context": "k=3"}, "context must be an object"),
        ({"input": {"question": "How big is the kettle?"}}, ""),
        ({"input": {"messages": [{"role": "user", "content": "hi"}]}}, ""),
        ({"input": None, "command": {"resume": "the hub"}}, ""),
    ],
)
def test_server_run_requests_are_checked_before_a_run(body: dict[str, Any], problem: str) -> None:
    from adaptive_rag.webapp import run_request_problem

    found = run_request_problem(json.dumps(body).encode())
    assert (problem in found) if problem else found == ""
    assert bool(found) == bool(problem)


SAME_RULE = {
    "200 KB in a message": (
        {"messages": [HumanMessage("How big is it? " * 14000)]},
        {"input": {"messages": [{"role": "user", "content": "How big is it? " * 14000}]}},
        {},
    ),
    "image-only message": (
        {"messages": [HumanMessage([{"type": "image_url", "image_url": {"url": "data:,x"}}])]},
        {
            "input": {
                "messages": [
                    {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}
                ]
            }
        },
        {},
    ),
    "configurable k=-5": (
        {"question": "How big is the Zephyr X2 kettle?"},
        {"input": {"question": "hi"}, "config": {"configurable": {"k": -5}}},
        {"configurable": {"k": -5}},
    ),
}


@pytest.mark.parametrize("case", list(SAME_RULE))
def test_python_and_http_refuse_the_same_input_in_the_same_words(case: str, tally: Any) -> None:
    from adaptive_rag.webapp import run_request_problem

    python_input, http_body, config = SAME_RULE[case]
    graph, model = graph_with_model()
    thread = {"configurable": {"thread_id": case, **config.get("configurable", {})}}
    out = graph.invoke(python_input, thread)
    detail = run_request_problem(json.dumps(http_body).encode())
    assert out["answerable"] is False and out["decline"]["reason"] == "invalid_input"
    assert detail and detail.endswith(out["answer"]), (detail, out["answer"])
    assert model.calls == []
    kept = graph.get_state(thread).values["messages"]
    assert all(m.name == REJECTED for m in kept)  # only stand-ins; the input itself is gone
    assert sum(len(str(m.content)) for m in kept) < 1000
    tally(faults=1)


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"assistant_id": "knowledge", "input": {"documents": "a.md"}}, "must be a list"),
        (
            {"assistant_id": "knowledge", "input": {"documents": [{"text": "x"}]}},
            "input.documents[0]: a document needs a non-empty 'name'",
        ),
        (
            {"assistant_id": "knowledge", "input": {"documents": [{"name": "a", "text": 5}]}},
            "'text' must be a string",
        ),
        ({"assistant_id": "knowledge", "input": {"delete": "a.md"}}, "list of strings"),
        ({"assistant_id": "knowledge", "input": {"public": "yes"}}, "true or false"),
        ({"graph_id": "knowledge", "context": {"collection": "docs"}}, ""),
        ({"assistant_id": "knowledge", "input": {"documents": [{"name": "a", "text": "x"}]}}, ""),
        ({"assistant_id": "knowledge", "input": {}}, ""),
        ({"assistant_id": "agent", "input": {"question": 5}}, "must be a string"),
    ],
)
def test_each_graph_has_its_own_request_rule(body: dict[str, Any], problem: str) -> None:
    from adaptive_rag.webapp import run_request_problem

    found = run_request_problem(json.dumps(body).encode())
    assert (problem in found) if problem else found == ""


def test_a_body_over_the_limit_is_refused_before_it_is_read_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from adaptive_rag import webapp
    from starlette.testclient import TestClient

    monkeypatch.setattr(webapp, "MAX_REQUEST_BYTES", 1000)
    client = TestClient(webapp.app)
    big = {"assistant_id": "knowledge", "input": {"documents": [{"name": "a", "text": "x" * 2000}]}}
    response = client.post("/runs/wait", json=big)
    assert response.status_code == 413 and "the limit is 1000 bytes" in response.json()["detail"]

    def chunks() -> Any:  # no content-length: refused once the body read passes the limit
        yield b'{"input": {"question": "'
        for _ in range(10):
            yield b"x" * 200
        yield b'"}}'

    response = client.post("/runs", content=chunks())
    assert response.status_code == 413
