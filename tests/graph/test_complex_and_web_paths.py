"""The complex route (a comparison's parts) and the real-time route to the web, driven by scripted fakes."""

from __future__ import annotations

from typing import Any

import pytest
from adaptive_rag import Services, build_graph
from fake_sources import FakeWeb, web_docs


def test_a_comparison_s_parts_steer_retrieval_and_one_answer_is_written(make_harness: Any) -> None:
    h = make_harness()
    out = h.ask("Compare the Zephyr X2 kettle and the Aurora lamp", k=2)
    steps = out["diagnostics"]["steps"]
    # the two parts and the whole question's own search, in parallel
    assert steps.count("sub_question") == 3 and "retrieve" not in steps
    assert steps[-3:] == ["generate", "self_check", "finalize"]
    assert out["diagnostics"]["retrievals"] == 3
    roles = h.model.roles()
    assert roles["rag"] == 1 and sum(roles.values()) == 1
    assert "decompose" not in roles  # the parts come from a rule, not a model
    # written as from one search: the whole question over the best k of the fused documents
    prompt = next(user for role, user in h.model.calls if role == "rag")
    assert "Question: Compare the Zephyr X2 kettle and the Aurora lamp" in prompt
    assert prompt.count("<source ") == 2
    assert {s["title"] for s in out["sources"]} == {"Zephyr X2", "Aurora lamp"}


def test_a_rejected_answer_from_parts_is_rewritten_with_the_check_s_feedback(
    make_harness: Any,
) -> None:
    h = make_harness(rag="The Aurora lamp uses 60 watts [2].")
    h.ask("Compare the Zephyr X2 kettle and the Aurora lamp", max_regenerations=1)
    rewrite = next(user for role, user in h.model.calls if role == "regenerate")
    assert "no support in [2] for 'The Aurora lamp uses 60 watts'" in rewrite


def test_realtime_goes_to_the_web_first(make_harness: Any) -> None:
    web = FakeWeb(web_docs())
    h = make_harness(web=web)
    out = h.ask("What is the latest Zephyr news today?")
    assert out["route"]["category"] == "realtime"
    assert out["diagnostics"]["steps"][:4] == ["intake", "recall", "classify", "web_search"]
    assert out["diagnostics"]["retrievals"] == 0
    assert out["sources"][0]["origin"] == "web"
    assert web.queries == ["What is the latest Zephyr news today?"]


def test_realtime_without_web_says_so_and_uses_the_knowledge_base(
    make_harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)
    h = make_harness()
    h.graph = build_graph(
        services=Services(chat_model=h.model, retriever=h.retriever, relevance=h.relevance)
    )
    out = h.ask("What is the latest news about the Zephyr X2 kettle today?")
    assert "web_search" not in out["diagnostics"]["steps"]
    assert out["diagnostics"]["retrievals"] == 1
    assert "The web could not be searched" in out["answer"]
    assert "no TAVILY_API_KEY" in out["answer"]
    switched_off = make_harness().ask("What is the latest news about the Zephyr X2 kettle today?")
    assert "web search is off for this agent" in switched_off["answer"]  # Services(no_web=True)


def test_web_turned_off_by_the_setting_says_so_not_that_a_key_is_missing(
    make_harness: Any,
) -> None:
    h = make_harness(web=FakeWeb())
    out = h.ask("What is the latest news about the Zephyr X2 kettle today?", web_search=False)
    assert "the web_search setting is false" in out["answer"]
    assert "TAVILY_API_KEY" not in out["answer"]
    spent = h.ask("What is the latest news about the Zephyr X2 kettle today?", max_web_searches=0)
    assert "max_web_searches is 0" in spent["answer"] and h.web.queries == []


def test_realtime_with_unreachable_web_falls_back_to_the_knowledge_base(make_harness: Any) -> None:
    h = make_harness(web=FakeWeb(error="ConnectionError: network unreachable"))
    out = h.ask("What is the latest news about the Zephyr X2 kettle today?")
    steps = out["diagnostics"]["steps"]
    assert steps[:5] == ["intake", "recall", "classify", "web_search", "retrieve"]
    assert "The web could not be searched" in out["answer"] and "unreachable" in out["answer"]
    assert any("web_search" in n for n in out["diagnostics"]["notes"])
    assert out["sources"][0]["origin"] == "kb"
