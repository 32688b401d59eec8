"""The corrective loops: CRAG's judged sources, Self-RAG's check and regeneration, declines."""

from __future__ import annotations

from typing import Any

from adaptive_rag import Services, build_graph
from fake_sources import FakeWeb, web_docs
from fakes import ScriptedJudge


def test_the_judge_drops_unlikely_sources_and_keeps_search_order(make_harness: Any) -> None:
    h = make_harness(relevance=ScriptedJudge([0.8, 0.9]))
    out = h.ask("How big is the Zephyr X2 kettle and the Aurora lamp?")
    rag = next(user for role, user in h.model.calls if role == "rag")
    assert rag.count("<source ") == 2 and rag.index("Zephyr X2") < rag.index("Aurora lamp")
    # every source judged once, by classify's probe (grading reuses its scores), no model call
    assert out["sources"] and len(h.relevance.calls) == 2
    # two likely sources: the search is read whole and written without assess's odds
    assert "assess" not in h.model.roles() and "assess" not in out["diagnostics"]["steps"]
    h = make_harness(relevance=ScriptedJudge([0.1, 0.9]))  # the top hit is unlikely: dropped
    h.ask("How big is the Zephyr X2 kettle and the Aurora lamp?")
    rag = next(user for role, user in h.model.calls if role == "rag")
    assert rag.count("<source ") == 1 and "Zephyr X2 kettle has" not in rag
    # one likely source is assessed first, over the prompt prefix the answer then reuses
    assess = next(user for role, user in h.model.calls if role == "assess")
    assert rag[: rag.index("</source>")] == assess[: assess.index("</source>")]


def grading_verdicts(out: dict[str, Any]) -> list[str]:
    """The CRAG verdicts grade_documents gave this turn."""
    return [j["verdict"] for j in out["diagnostics"]["judgments"] if j["node"] == "grade_documents"]


def test_crag_correct_uses_documents_and_drops_irrelevant_ones(make_harness: Any) -> None:
    h = make_harness(relevance=ScriptedJudge([0.9, 0.1]))
    out = h.ask("How big is the Zephyr X2 kettle?")
    rag = next(user for role, user in h.model.calls if role == "rag")
    assert "Zephyr X2" in rag and "Returns are accepted" not in rag
    assert grading_verdicts(out) == ["correct"]


def test_a_middling_best_source_is_read_as_correct(make_harness: Any) -> None:
    # CRAG's ambiguous band was removed: a search is correct or incorrect, never refined
    h = make_harness(relevance=ScriptedJudge([0.5, 0.1]))
    out = h.ask("How big is the Zephyr X2 kettle?")
    steps = out["diagnostics"]["steps"]
    assert steps[steps.index("grade_documents") + 1] in ("assess", "generate")
    assert grading_verdicts(out) == ["correct"]


def test_crag_incorrect_rewrites_for_the_web(make_harness: Any) -> None:
    web = FakeWeb(web_docs())
    h = make_harness(
        web=web, relevance=ScriptedJudge([0.0, 0.0]), transform="Zephyr kettle capacity litres"
    )
    out = h.ask("How big is the Zephyr X2 kettle?")
    steps = out["diagnostics"]["steps"]
    assert steps[steps.index("grade_documents") :][:3] == [
        "grade_documents",
        "transform_query",
        "web_search",
    ]
    assert web.queries == ["Zephyr kettle capacity litres"]
    assert out["diagnostics"]["rewrites"] == 1


def test_crag_incorrect_without_web_searches_the_knowledge_base_again(make_harness: Any) -> None:
    h = make_harness(
        # classify's probe (grading reuses its scores), then the rewritten query's search
        relevance=ScriptedJudge([0.0, 0.0], [0.9, 0.0]),
        transform="Zephyr kettle litres",
    )
    out = h.ask("How big is the Zephyr X2 kettle?")
    steps = out["diagnostics"]["steps"]
    assert steps.count("retrieve") == 2 and steps.count("transform_query") == 1
    assert out["verified"] is True


def test_self_check_not_grounded_regenerates_with_feedback(make_harness: Any) -> None:
    h = make_harness(
        rag="The Zephyr X2 kettle costs 49 dollars [1].",
        regenerate="The Zephyr X2 kettle holds 1.7 litres [1].",
    )
    out = h.ask("How big is the Zephyr X2 kettle?")
    assert h.model.roles()["regenerate"] == 1
    prompt = next(user for role, user in h.model.calls if role == "regenerate")
    assert "no support in [1] for 'The Zephyr X2 kettle costs 49 dollars'" in prompt
    assert out["answer"] == "The Zephyr X2 kettle holds 1.7 litres [1]."
    assert out["verified"] is True and out["diagnostics"]["regenerations"] == 1


def test_a_rewrite_that_copies_the_checks_feedback_loses_those_lines(make_harness: Any) -> None:
    h = make_harness(
        rag="The Zephyr X2 kettle costs 49 dollars [1].",
        regenerate=(
            "No support in for 'The Zephyr X2 kettle costs 49 dollars' (not found: 49)\n"
            "The Zephyr X2 kettle holds 1.7 litres [1]."
        ),
    )
    out = h.ask("How big is the Zephyr X2 kettle?")
    assert out["answer"] == "The Zephyr X2 kettle holds 1.7 litres [1]."
    assert out["verified"] is True and out["diagnostics"]["regenerations"] == 1


def test_an_answer_still_unsupported_is_marked_or_declined_as_answer_check_says(
    make_harness: Any,
) -> None:
    h = make_harness(rag="It costs 49 dollars [1].", regenerate="It costs 49 dollars [1].")
    marked = h.ask("How long does the kettle take to boil?")  # names nothing the documents own
    assert marked["answerable"] is True and marked["verified"] is False
    assert "Unverified" in marked["answer"] and marked["diagnostics"]["regenerations"] == 1
    owned = h.ask("How big is the Zephyr X2 kettle?")  # its page is titled by the name
    assert owned["answerable"] is False and owned["decline"]["reason"] == "unsupported"
    assert "49" not in owned["answer"]
    declined = h.ask("How big is the Zephyr X2 kettle?", answer_check="decline")
    assert declined["decline"]["reason"] == "unsupported"
    assert "49 dollars" in declined["decline"]["detail"]
    off = h.ask("How big is the Zephyr X2 kettle?", answer_check="off")
    assert off["answer"] == "It costs 49 dollars [1]." and off["diagnostics"]["regenerations"] == 0
    assert off["answerable"] is True and off["verified"] is False  # not checked, so not verified


def test_citations_are_repaired_to_point_at_the_source_that_says_it(make_harness: Any) -> None:
    h = make_harness(rag="[3] The Zephyr X2 kettle holds 1.7 litres.")
    out = h.ask("How big is the Zephyr X2 kettle?")
    assert out["answer"] == "The Zephyr X2 kettle holds 1.7 litres [1]."
    assert [s["title"] for s in out["sources"] if s["cited"]] == ["Zephyr X2"]


def test_a_declined_answer_rewrites_the_query_for_the_web(make_harness: Any) -> None:
    web = FakeWeb(web_docs())
    h = make_harness(web=web, transform="Zephyr X2 kettle capacity")
    h.graph = build_graph(
        services=Services(
            chat_model=h.model,
            retriever=h.retriever,
            web_search=web,
            relevance=h.relevance,
            answerability=ScriptedJudge([0.1], thresholds={"decline": 0.5}),
        )
    )
    out = h.ask("How big is the Zephyr X2 kettle?")
    steps = out["diagnostics"]["steps"]
    after_check = steps[steps.index("self_check") :]
    assert after_check[:4] == ["self_check", "transform_query", "web_search", "generate"]
    assert web.queries == ["Zephyr X2 kettle capacity"]
    assert out["answerable"] is True and out["diagnostics"]["rewrites"] == 1


def test_an_unanswerable_question_is_declined_without_searching_again(
    make_harness: Any,
) -> None:
    h = make_harness(transform="query that matches nothing")
    unlikely = ScriptedJudge([0.1], thresholds={"decline": 0.5})
    h.graph = build_graph(
        services=Services(
            chat_model=h.model,
            retriever=h.retriever,
            no_web=True,
            relevance=h.relevance,
            answerability=unlikely,
        )
    )
    out = h.ask("How big is the Zephyr X2 kettle?")
    assert out["diagnostics"]["steps"].count("retrieve") == 1  # no web: nothing new to search
    assert out["diagnostics"]["rewrites"] == 0 and h.model.roles().get("transform", 0) == 0
    assert out["answerable"] is False and "1.7 litre capacity" not in out["answer"]
    never = h.ask("How big is the Zephyr X2 kettle?", declines="never")
    assert never["answerable"] is True and never["diagnostics"]["rewrites"] == 0
