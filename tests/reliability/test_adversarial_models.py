"""Adversarial models: every loop ends within its budget, and the model calls are bounded."""

from __future__ import annotations

import json
from typing import Any

import pytest
from adaptive_rag import Context, Services, build_graph
from adaptive_rag.prompts.generate import UNVERIFIED_NOTE as NOTES
from fake_sources import FakeWeb, KeywordRetriever, kb_docs, web_docs
from fakes import ScriptedChatModel, ScriptedJudge

UNVERIFIED_NOTE = NOTES["en"]

UNSUPPORTED = "It costs 49 dollars [1]."
"""An answer no source supports, however often it is written."""
NEVER_GROUNDED = dict.fromkeys(("rag", "regenerate", "hops_answer"), UNSUPPORTED)


def run(
    web: Any = None,
    question: str = "How big is the Zephyr X2 kettle?",
    irrelevant: bool = False,
    never_grounded: bool = False,
    never_answers: bool = False,
    **kw: Any,
) -> tuple[dict[str, Any], ScriptedChatModel]:
    script = {k: v for k, v in kw.items() if k in {"classify", "hop", "transform"}}
    ctx = {k: v for k, v in kw.items() if k not in script}
    model = ScriptedChatModel.with_script(**script, **(NEVER_GROUNDED if never_grounded else {}))
    unlikely = ScriptedJudge([0.0], thresholds={"decline": 0.5})
    graph = build_graph(
        services=Services(
            chat_model=model,
            retriever=KeywordRetriever(docs=kb_docs()),
            web_search=web,
            no_web=web is None,
            relevance=ScriptedJudge([0.0] if irrelevant else [0.9, 0.1]),  # one likely source
            answerability=unlikely if never_answers else None,
        )
    )
    return graph.invoke({"question": question}, context=Context(**ctx)), model


@pytest.mark.parametrize("budget", [0, 1, 3])
def test_never_grounded_stops_after_its_regeneration_budget(budget: int, tally: Any) -> None:
    out, model = run(never_grounded=True, max_regenerations=budget, answer_check="decline")
    d = out["diagnostics"]
    assert d["regenerations"] == budget and d["generations"] == budget + 1
    assert out["verified"] is False and out["answerable"] is False  # declined, never guessed
    assert out["decline"]["reason"] == "unsupported" and UNVERIFIED_NOTE not in out["answer"]
    # assess + generate per attempt (the judge routes it; grading and checking call no model)
    assert d["model_calls"] == 1 + (budget + 1) == len(model.calls)
    # marked, not declined, where the question names nothing the documents are about
    marked, _ = run(
        never_grounded=True, max_regenerations=budget, question="How big is the kettle?"
    )
    assert marked["answerable"] is True and UNVERIFIED_NOTE in marked["answer"]
    owned, _ = run(never_grounded=True, max_regenerations=budget)  # "Zephyr X2" titles a page
    assert owned["answerable"] is False and owned["decline"]["reason"] == "unsupported"
    chinese, _ = run(
        never_grounded=True,
        max_regenerations=budget,
        question="Zephyr X2 水壶多大？",
        declines="never",  # returned, marked, in the asker's language
    )
    assert chinese["answer"].endswith(NOTES["zh"]) and UNVERIFIED_NOTE not in chinese["answer"]
    assert chinese["notices"] == [NOTES["zh"]]  # the note in the asker's language
    tally(faults=1)


@pytest.mark.parametrize("budget", [0, 1, 3])
def test_never_answers_is_declined_after_one_search_without_the_web(
    budget: int, tally: Any
) -> None:
    out, model = run(never_answers=True, max_rewrites=budget, transform="Zephyr X2 kettle size")
    d = out["diagnostics"]
    assert d["rewrites"] == 0 and d["retrievals"] == 1  # a rewrite would find the same sources
    assert out["verified"] is False and out["decline"]["reason"] == "not_in_sources"
    # assess + generate; the judge routes it, not the model
    assert d["model_calls"] == len(model.calls) == 2
    tally(faults=1)


@pytest.mark.parametrize(("rewrites", "searches"), [(0, 1), (1, 0), (1, 1), (3, 1), (3, 2)])
def test_never_answers_tries_the_web_within_both_budgets(
    rewrites: int, searches: int, tally: Any
) -> None:
    out, model = run(
        web=FakeWeb(web_docs()),
        never_answers=True,
        max_rewrites=rewrites,
        max_web_searches=searches,
        transform="Zephyr X2 kettle size",
    )
    d = out["diagnostics"]
    tried = min(rewrites, searches, 1)  # an answer from the web is not judged by the decline
    assert d["rewrites"] == tried and d["web_searches"] == tried and d["retrievals"] == 1
    assert (out["decline"] is None) == bool(tried)
    assert d["model_calls"] == len(model.calls) == 2 + 2 * tried  # + the rewrite and its answer
    tally(faults=1)


@pytest.mark.parametrize(("rewrites", "searches"), [(0, 0), (2, 0), (2, 2), (0, 3)])
def test_always_irrelevant_ends_within_rewrite_and_web_budgets(
    rewrites: int, searches: int, tally: Any
) -> None:
    web = FakeWeb(web_docs()) if searches else None
    out, model = run(
        web=web,
        irrelevant=True,
        never_grounded=True,
        max_rewrites=rewrites,
        max_web_searches=max(searches, 0),
        max_regenerations=1,
    )
    d = out["diagnostics"]
    assert d["rewrites"] <= rewrites and d["web_searches"] <= searches
    assert d["regenerations"] <= 1 and out["verified"] is False
    bound = 1 + rewrites + searches + 2 * 2  # classify, transforms, webs, (assess + gen) x 2
    assert len(model.calls) <= bound
    tally(faults=2)


def test_a_comparison_searches_its_two_parts_and_the_whole_question(tally: Any) -> None:
    out, model = run(question="Compare the kettle and the lamp")
    assert out["diagnostics"]["steps"].count("sub_question") == 3
    assert dict(model.roles()) == {"rag": 1}  # one answer: the parts are only searched
    tally(faults=1)


def test_everything_adversarial_at_once_is_bounded(tally: Any) -> None:
    web = FakeWeb(web_docs())
    out, model = run(
        web=web,
        irrelevant=True,
        never_grounded=True,
        max_rewrites=2,
        max_regenerations=2,
        max_web_searches=2,
    )
    assert out["diagnostics"]["steps"][-1] == "finalize"
    assert len(model.calls) <= 1 + 3 * 2 + 3 * 2
    tally(faults=3)


@pytest.mark.parametrize(("hops", "regenerations"), [(1, 0), (3, 1), (6, 3)])
def test_endless_hops_and_never_grounded_answers_stop_on_their_budgets(
    hops: int, regenerations: int, tally: Any
) -> None:
    asked: list[int] = []

    def endless(user: str) -> str:  # always another missing fact, always a new query
        asked.append(1)
        return json.dumps(
            {"finding": "", "answerable": False, "next_query": f"search {len(asked)} kettle"}
        )

    out, model = run(
        question="Where was the inventor of the Zephyr X2 kettle born?",
        hop=endless,
        never_grounded=True,
        answer_check="decline",
        max_hops=hops,
        max_regenerations=regenerations,
    )
    d = out["diagnostics"]
    assert len(d["hops"]) == hops and d["retrievals"] == hops
    assert d["regenerations"] == regenerations and out["answerable"] is False
    # hops + generate per attempt; the rule routed it, so no classify call
    assert d["model_calls"] == len(model.calls) == hops + regenerations + 1
    tally(faults=1)


@pytest.mark.parametrize("budget", [0, 2])
def test_a_never_grounded_synthesis_stops_after_its_regeneration_budget(
    budget: int, tally: Any
) -> None:
    out, model = run(
        question="Compare the Zephyr X2 kettle and the Aurora lamp.",
        never_grounded=True,
        answer_check="decline",
        max_regenerations=budget,
    )
    d = out["diagnostics"]
    assert d["regenerations"] == budget and d["generations"] == budget + 1
    assert out["answerable"] is False and d["model_calls"] == len(model.calls)
    tally(faults=1)
