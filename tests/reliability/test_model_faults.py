"""Every node failing degrades to a simpler path: the run ends, the conversation survives."""

from __future__ import annotations

from typing import Any

import adaptive_rag
import pytest
from adaptive_rag import Services, build_graph
from fake_sources import FakeWeb, KeywordRetriever, kb_docs, web_docs
from fakes import ScriptedChatModel, ScriptedJudge
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

COMPLEX = "Compare the Zephyr X2 kettle and the Aurora lamp"

# role that fails (":where" tells two places of one role apart) -> (question that reaches it,
# script so that it is reached, context)
REACHES: dict[str, tuple[str, dict[str, Any], dict[str, Any]]] = {
    "classify": ("Tell me about the Zephyr X2 kettle", {"relevance": [0.0]}, {}),  # not held
    "rewrite": ("and it?", {}, {}),
    "rag:complex": (COMPLEX, {}, {}),  # the parts only steer retrieval (the default)
    "transform": ("How big is the Zephyr X2 kettle?", {"relevance": [0.0]}, {}),
    "rag": ("How big is the Zephyr X2 kettle?", {}, {}),
    "regenerate": ("How big is the Zephyr X2 kettle?", {"rag": "It costs 49 dollars [1]."}, {}),
    "direct": ("What is 12 times 7?", {}, {}),
    "talk": ("Hello!", {}, {}),
    "assess": ("How big is the Zephyr X2 kettle?", {"relevance": [0.9, 0.1]}, {}),  # one likely
}
FAULTS: dict[str, Any] = {
    "exception": RuntimeError("model exploded"),
    "timeout": TimeoutError("request timed out after 60 s"),
    "connection": ConnectionError("Connection refused"),
    "malformed": "}{ not json at all",
    "empty": "",
}
# classify, history rewrite; per retrieval (2 with one rewrite): assess; a query rewrite;
# generate x 2 with a regeneration
CALL_BOUND = 1 + 1 + 2 * 1 + 1 + 2


@pytest.mark.parametrize("role", sorted(REACHES))
@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_failing_model_call_degrades_and_the_thread_survives(
    role: str, fault: str, tally: Any
) -> None:
    question, script, context = REACHES[role]
    script = dict(script)  # shared by every fault: never changed in place
    failing = role.split(":")[0]
    relevance = ScriptedJudge(script.pop("relevance", [0.9]))
    model = ScriptedChatModel.with_script(**{**script, failing: FAULTS[fault]})
    graph = build_graph(
        InMemorySaver(),
        services=Services(
            chat_model=model,
            retriever=KeywordRetriever(docs=kb_docs()),
            no_web=True,
            relevance=relevance,
        ),
    )
    config = {"configurable": {"thread_id": f"{role}-{fault}"}}
    ctx = adaptive_rag.Context(**context)
    graph.invoke({"question": "How big is the Zephyr X2 kettle?"}, config, context=ctx)
    out = graph.invoke({"question": question}, config, context=ctx)
    assert failing in model.roles(), "the failing node was not reached"
    assert out["answer"].strip()
    assert out["diagnostics"]["steps"][-1] == "finalize"
    assert len(model.calls) <= 2 * CALL_BOUND  # two turns, each within its budgets
    if isinstance(FAULTS[fault], Exception):
        notes = " ".join(out["diagnostics"]["notes"])
        assert type(FAULTS[fault]).__name__ in notes + out["answer"], "no diagnostic of the fault"
    # the conversation is intact: both turns, each answered
    kinds = [type(m) for m in graph.get_state(config).values["messages"]]
    assert kinds == [HumanMessage, AIMessage, HumanMessage, AIMessage]
    tally(faults=1, lost=4 - len(kinds))


def test_failed_generation_is_an_honest_could_not_answer() -> None:
    model = ScriptedChatModel.with_script(rag=TimeoutError("timed out"))
    graph = build_graph(
        services=Services(chat_model=model, retriever=KeywordRetriever(docs=kb_docs()), no_web=True)
    )
    out = graph.invoke({"question": "How big is the Zephyr X2 kettle?"})
    assert out["answer"].startswith("Sorry, I could not answer this question")
    assert "TimeoutError" in out["answer"]
    assert out["confidence"] == 0.0 and out["verified"] is False
    assert "self_check" not in out["diagnostics"]["steps"]


@pytest.mark.usefixtures("heuristic_confidence")
def test_sources_without_search_signals_are_kept_unjudged_at_lower_confidence() -> None:
    model = ScriptedChatModel.with_script()
    graph = build_graph(  # a retriever of the host's own: its results carry no search signals
        services=Services(chat_model=model, retriever=KeywordRetriever(docs=kb_docs()), no_web=True)
    )
    baseline = build_graph(
        services=Services(
            chat_model=ScriptedChatModel.with_script(),
            retriever=KeywordRetriever(docs=kb_docs()),
            no_web=True,
            relevance=ScriptedJudge([0.9]),
        )
    )
    out = graph.invoke({"question": "How big is the Zephyr X2 kettle?"})
    ref = baseline.invoke({"question": "How big is the Zephyr X2 kettle?"})
    assert out["sources"] and out["confidence"] < ref["confidence"]
    assert any("no search signals" in n for n in out["diagnostics"]["notes"])
    assert out["diagnostics"]["judgments"][0]["method"] == "rule"


@pytest.mark.usefixtures("heuristic_confidence")
def test_knowledge_base_down_falls_back_and_says_so() -> None:
    model = ScriptedChatModel.with_script()
    retriever = KeywordRetriever(docs=kb_docs(), fail=True)
    graph = build_graph(services=Services(chat_model=model, retriever=retriever, no_web=True))
    out = graph.invoke({"question": "How big is the Zephyr X2 kettle?"})
    assert any(f["node"] == "retrieve" for f in out["failures"])
    assert out["decline"]["reason"] == "no_knowledge_base"
    assert "vector store is down" in out["answer"]  # the cause, not "found nothing"
    assert out["sources"] == [] and out["confidence"] <= 0.2


def test_web_error_payload_and_empty_results_continue_from_the_knowledge_base() -> None:
    model = ScriptedChatModel.with_script()
    for web in (FakeWeb(error="rate limit exceeded"), FakeWeb([])):
        graph = build_graph(
            services=Services(
                chat_model=model,
                retriever=KeywordRetriever(docs=kb_docs()),
                web_search=web,
                relevance=ScriptedJudge([0.0]),
            )
        )
        out = graph.invoke(
            {"question": "How big is the Zephyr X2 kettle?"},
            context=adaptive_rag.Context(max_rewrites=0),
        )
        assert out["diagnostics"]["web_searches"] == 1
        assert out["answer"]


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"question": "   "}, "no question text"),
        ({"messages": []}, "no question text"),
        ({"messages": [AIMessage("I am the last message")]}, "no question text"),
        ({"question": "x" * 5000}, "too long"),
    ],
)
def test_bad_input_gets_a_clear_answer_and_no_model_call(
    payload: dict[str, Any], message: str
) -> None:
    model = ScriptedChatModel.with_script()
    graph = build_graph(
        services=Services(chat_model=model, retriever=KeywordRetriever(docs=kb_docs()), no_web=True)
    )
    out = graph.invoke(payload)
    assert message in out["answer"]
    assert out["confidence"] == 0.0 and model.calls == []
    assert out["diagnostics"]["steps"] == ["intake", "finalize"]


def test_exported_agent_runs_with_no_key_and_degrades_honestly() -> None:
    out = adaptive_rag.agent.invoke({"question": "Hello!"})
    assert "Sorry, I could not answer this question" in out["answer"]
    assert "OPENAI_API_KEY" in out["answer"]
    out = adaptive_rag.agent.invoke({"question": "What does the warranty cover?"})
    assert out["answer"] and out["diagnostics"]["steps"][-1] == "finalize"


def test_web_results_show_as_web_sources() -> None:
    model = ScriptedChatModel.with_script()
    graph = build_graph(
        services=Services(
            chat_model=model,
            retriever=KeywordRetriever(docs=kb_docs()),
            web_search=FakeWeb(web_docs()),
        )
    )
    out = graph.invoke({"question": "What is the latest news today?"})
    assert out["sources"][0]["origin"] == "web" and out["sources"][0]["source"].startswith(
        "https://"
    )
