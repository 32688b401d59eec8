"""A question that points at a missing conversation is clarified, by interrupt or as the answer."""

from __future__ import annotations

from typing import Any

from adaptive_rag import Context, Services, build_graph
from adaptive_rag.nodes.clarify import combine
from adaptive_rag.prompts import clarify as prompts
from fake_sources import KeywordRetriever, kb_docs
from fakes import ScriptedChatModel
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command


def graph(checkpointer: Any = None) -> tuple[Any, ScriptedChatModel]:
    model = ScriptedChatModel.with_script()
    services = Services(chat_model=model, retriever=KeywordRetriever(docs=kb_docs()), no_web=True)
    return build_graph(checkpointer, services=services), model


def test_without_a_thread_the_clarifying_question_is_the_answer() -> None:
    g, model = graph()
    out = g.invoke({"question": "What about the other one?"})
    assert out["answer"] == prompts.ASK_EN and model.calls == []
    assert out["diagnostics"]["steps"] == ["intake", "recall", "classify", "clarify", "finalize"]
    assert out["confidence"] == 0.0 and out["route"]["category"] == "follow_up"
    assert g.invoke({"question": "那个呢？"})["answer"] == prompts.ASK_ZH


def test_on_a_thread_it_interrupts_and_resumes_with_the_reply() -> None:
    g, model = graph(InMemorySaver())
    config = {"configurable": {"thread_id": "c1"}}
    first = g.invoke({"question": "What about the other one?"}, config)
    interrupts = first["__interrupt__"]
    assert interrupts[0].value["question"] == prompts.ASK_EN
    assert g.get_state(config).next == ("clarify",)
    out = g.invoke(Command(resume="the Zephyr X2 kettle"), config)
    assert "Zephyr X2" in out["sources"][0]["title"]
    assert out["diagnostics"]["steps"][:5] == [
        "intake",
        "recall",
        "classify",
        "clarify",
        "classify",
    ]
    classify_prompt = [user for role, user in model.calls if role == "classify"][-1]
    assert "What about the other one? (the Zephyr X2 kettle)" in classify_prompt


def test_switched_off_it_just_retrieves() -> None:
    g, _ = graph()
    out = g.invoke({"question": "What about the other one?"}, context=Context(clarify=False))
    assert "clarify" not in out["diagnostics"]["steps"]
    assert out["diagnostics"]["retrievals"] == 1


def test_combine_reply() -> None:
    assert combine("What about it?", "the kettle") == "What about it? (the kettle)"
    assert (
        combine("What about it?", "How big is the Zephyr kettle?")
        == "How big is the Zephyr kettle?"
    )
    assert combine("What about it?", "  ") == "What about it?"
