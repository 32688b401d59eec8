"""The multi-step path: each hop searches with what the last one found, within max_hops."""

from __future__ import annotations

import json
from typing import Any

import pytest
from adaptive_rag import Context
from fake_sources import KeywordRetriever, bridge_docs
from fakes import ScriptedJudge

BRIDGE = "Where was the inventor of the Zephyr kettle born?"


def step(finding: str, answerable: bool, next_query: str = "") -> str:
    return json.dumps({"finding": finding, "answerable": answerable, "next_query": next_query})


def bridge_hop(user: str) -> str:
    """First hop finds the inventor; the second, searching for them, finds the birthplace."""
    if "This is the first step." in user:
        return step("Ada Brook invented the Zephyr kettle", False, "Where was Ada Brook born?")
    return step("Ada Brook was born in Leeds", True)


HOPS_ANSWER = "Ada Brook, who invented the Zephyr kettle, was born in Leeds [1][2]."
"""An answer the two passages support together (the question names a title: it is checked)."""


def test_a_bridge_question_hops_to_the_second_fact(make_harness: Any) -> None:
    h = make_harness(
        retriever=KeywordRetriever(docs=bridge_docs()), hop=bridge_hop, hops_answer=HOPS_ANSWER
    )
    out = h.ask(BRIDGE)
    assert out["route"]["category"] == "complex"
    hops = out["diagnostics"]["hops"]
    assert [hop["query"] for hop in hops] == [BRIDGE, "Where was Ada Brook born?"]
    assert hops[1]["finding"] == "Ada Brook was born in Leeds" and hops[1]["done"]
    assert out["diagnostics"]["steps"].count("hop") == 2
    assert h.model.roles()["decompose"] == 0  # the rule saw the nesting: no split needed
    answer_prompt = next(user for role, user in h.model.calls if role == "hops_answer")
    assert "Ada Brook was born in Leeds" in answer_prompt and "born in Leeds." in answer_prompt
    assert out["answerable"] and out["sources"]


@pytest.mark.parametrize("max_hops", [1, 2, 3, 6])
def test_hops_end_within_the_budget_however_the_model_replies(
    make_harness: Any, max_hops: int
) -> None:
    asked: list[int] = []

    def endless(user: str) -> str:  # never satisfied, always a new query
        asked.append(1)
        return step("", False, f"search number {len(asked)} for the Zephyr kettle")

    h = make_harness(retriever=KeywordRetriever(docs=bridge_docs()), hop=endless)
    out = h.ask(BRIDGE, max_hops=max_hops)
    assert len(out["diagnostics"]["hops"]) == max_hops
    assert out["answer"]


def test_a_repeated_query_ends_the_hops(make_harness: Any) -> None:
    h = make_harness(
        retriever=KeywordRetriever(docs=bridge_docs()),
        hop=step("nothing new", False, "Zephyr kettle inventor"),
    )
    out = h.ask(BRIDGE)
    assert [hop["query"] for hop in out["diagnostics"]["hops"]] == [
        BRIDGE,
        "Zephyr kettle inventor",
    ]


@pytest.mark.parametrize("reply", [RuntimeError("model down"), "not json at all"])
def test_a_failed_hop_searches_on_by_the_names_in_its_sources(
    make_harness: Any, reply: Any
) -> None:
    h = make_harness(
        retriever=KeywordRetriever(docs=bridge_docs()), hop=reply, hops_answer=HOPS_ANSWER
    )
    out = h.ask(BRIDGE)
    hops = out["diagnostics"]["hops"]
    assert hops[0]["bridges"][0] == "Ada Brook"  # the name the question does not hold
    assert hops[1]["query"] == ", ".join(hops[0]["bridges"])
    assert len(hops) == 2  # the second hop's sources hold no name not followed already
    assert any(note.startswith("hop 1:") for note in out["diagnostics"]["notes"])
    assert out["answerable"] and out["sources"]


def test_a_failed_search_declines_instead_of_guessing(make_harness: Any) -> None:
    h = make_harness(retriever=KeywordRetriever(docs=bridge_docs(), fail=True))
    out = h.ask(BRIDGE)
    assert out["answerable"] is False
    assert out["decline"]["reason"] == "no_knowledge_base"  # the cause, said in the answer
    assert "retrieval failed" in " ".join(out["diagnostics"]["notes"])


def test_a_complex_question_no_rule_shapes_is_searched_whole(make_harness: Any) -> None:
    h = make_harness(
        retriever=KeywordRetriever(docs=bridge_docs()),
        classify="complex",
        hop=bridge_hop,
        relevance=ScriptedJudge([0.0], [0.9]),  # the probe finds nothing likely: the model routes
    )
    out = h.ask("Home town of the Zephyr kettle inventor, please")  # "Zephyr" titles a page
    steps = out["diagnostics"]["steps"]
    assert out["route"]["category"] == "complex" and "hop" not in steps
    assert "sub_question" not in steps and "retrieve" in steps
    decided = next(j for j in out["diagnostics"]["judgments"] if j["node"] == "decompose")
    assert decided["method"] == "rule" and decided["verdict"] == "parallel"
    assert "decompose" not in h.model.roles()  # no model call


def test_comparisons_still_search_their_parts_in_parallel(make_harness: Any) -> None:
    h = make_harness(retriever=KeywordRetriever(docs=bridge_docs()))
    out = h.ask("Compare the Zephyr kettle and Ada Brook's other work.")
    assert "sub_question" in out["diagnostics"]["steps"]
    assert out["diagnostics"]["hops"] == []


@pytest.mark.parametrize(("shape", "step_name"), [("parallel", "retrieve"), ("sequential", "hop")])
def test_the_shape_can_be_forced(make_harness: Any, shape: str, step_name: str) -> None:
    h = make_harness(retriever=KeywordRetriever(docs=bridge_docs()), hop=bridge_hop)
    out = h.ask(BRIDGE, complex_shape=shape)
    assert out["diagnostics"]["steps"].count("hop") == (shape == "sequential") * 2
    assert step_name in out["diagnostics"]["steps"]


def test_hops_stream_progress(make_harness: Any) -> None:
    h = make_harness(retriever=KeywordRetriever(docs=bridge_docs()), hop=bridge_hop)
    events = [
        chunk
        for mode, chunk in h.graph.stream(
            {"question": BRIDGE}, context=Context(), stream_mode=["custom", "updates"]
        )
        if mode == "custom" and chunk.get("step") == "hop"
    ]
    assert [e["finding"] for e in events] == [
        "Ada Brook invented the Zephyr kettle",
        "Ada Brook was born in Leeds",
    ]


def test_a_hop_that_names_a_missing_fact_searches_for_it_though_it_says_answerable(
    make_harness: Any,
) -> None:
    """A small model says "answerable" at once; the missing fact it names is searched next."""

    def eager_hop(user: str) -> str:
        if "This is the first step." in user:
            reply = {"finding": "Ada Brook invented the Zephyr kettle", "answerable": True}
            return json.dumps({**reply, "missing": "Ada Brook's birthplace", "next_query": ""})
        return json.dumps({"finding": "born in Leeds", "missing": "", "answerable": True})

    h = make_harness(retriever=KeywordRetriever(docs=bridge_docs()), hop=eager_hop)
    hops = h.ask(BRIDGE)["diagnostics"]["hops"]
    assert [hop["query"] for hop in hops] == [BRIDGE, "Ada Brook's birthplace"]
    assert [hop["done"] for hop in hops] == [False, True]
