"""Edge functions are pure: each is checked on hand-built states."""

from __future__ import annotations

from typing import Any

import pytest
from adaptive_rag.graph import edges
from langchain_core.documents import Document
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.types import Send

RULES = {
    "rewrite_budget": 1,
    "regeneration_budget": 1,
    "web_search_budget": 1,
    "checks_answers": 1,
}


def state(**fields: Any) -> Any:
    return {"rules": dict(RULES), **fields}


def route(category: str) -> dict[str, str]:
    return {"category": category, "reason": "", "method": "rule"}


def check(grounded: bool, answers: bool) -> dict[str, Any]:
    return {"grounded": grounded, "answers_question": answers, "feedback": ""}


def test_after_intake() -> None:
    assert edges.after_intake(state(error="empty")) == "finalize"
    assert edges.after_intake(state(error="")) == "classify"


def test_follow_up_rewrites_with_history_and_clarifies_without() -> None:
    two_turns = [HumanMessage("a"), AIMessage("b"), HumanMessage("c")]
    assert edges.route_question(state(route=route("follow_up"), messages=two_turns)) == (
        "rewrite_with_history"
    )
    lone = state(route=route("follow_up"), messages=[HumanMessage("what about it?")])
    assert edges.route_question({**lone, "rules": {**RULES, "asks_to_clarify": 1}}) == "clarify"
    assert edges.route_question({**lone, "rules": {**RULES, "asks_to_clarify": 0}}) == "retrieve"
    asked = {**lone, "rules": {**RULES, "asks_to_clarify": 1}, "clarified": True}
    assert edges.route_question(asked) == "retrieve"  # asked once per turn, never again
    rewritten = state(route=route("follow_up"), messages=two_turns, history_rewritten=True)
    assert edges.route_question(rewritten) == "retrieve"  # rewritten once per turn, never again


def test_after_clarify() -> None:
    assert edges.after_clarify(state(clarification="Which one?")) == "finalize"
    assert edges.after_clarify(state(clarification="")) == "classify"


@pytest.mark.parametrize(
    ("category", "web", "expected"),
    [
        ("simple", True, "retrieve"),
        ("complex", False, "decompose"),
        ("realtime", True, "web_search"),
        ("realtime", False, "retrieve"),
    ],
)
def test_route_question(category: str, web: bool, expected: str) -> None:
    assert edges.route_question(state(route=route(category), web_available=web)) == expected


@pytest.mark.parametrize(
    ("talk", "general_questions", "expected"),
    [
        ("greeting", 1, "generate"),  # small talk: no fact to know or look up
        ("arithmetic", 0, "generate"),
        (None, 1, "answer_general"),
        (None, 0, "retrieve"),  # documents only
    ],
)
def test_a_general_question_is_answered_by_its_kind(
    talk: str | None, general_questions: int, expected: str
) -> None:
    # classify's verdict is read, never derived again from the question
    rules = {**RULES, "answers_general_questions": general_questions}
    routed = state(route=route("general"), standalone="Hello!", talk=talk, rules=rules)
    assert edges.route_question(routed) == expected


def decline(reason: str) -> dict[str, str]:
    return {"reason": reason, "detail": ""}


def test_a_decline_the_documents_caused_may_be_answered_from_general_knowledge() -> None:
    on = {**RULES, "answers_general_questions": 1}
    assert edges.after_generate(state(decline=decline("no_relevant_documents"), rules=on)) == (
        "answer_general"
    )
    assert edges.after_generate(state(decline=decline("no_knowledge_base"), rules=on)) == (
        "finalize"  # the store could not be searched: the answer says so
    )
    tried = state(decline=decline("not_in_sources"), rules=on, general_tried=True)
    assert edges.after_generate(tried) == "finalize"  # once a turn
    now = state(decline=decline("no_documents"), rules=on, route=route("realtime"))
    assert edges.after_generate(now) == "finalize"  # what is true today no model knows
    kept = state(decline=decline("empty_answer"), rules=on, best_answer="A.", best_score=1)
    assert edges.after_generate(kept) == "finalize"  # an earlier answer is kept instead
    off = state(decline=decline("no_relevant_documents"), rules=RULES)
    assert edges.after_generate(off) == "finalize"
    unanswered = state(check=check(True, False), decline=decline("not_in_sources"), rules=on)
    assert edges.after_self_check(unanswered) == "answer_general"


def test_after_answer_general() -> None:
    assert edges.after_answer_general(state(mode="direct")) == "finalize"
    assert edges.after_answer_general(state(decline=decline("not_in_sources"))) == "finalize"
    assert edges.after_answer_general(state(mode="none")) == "retrieve"
    searched = state(mode="none", relevance="incorrect")  # asked before searching again
    assert edges.after_answer_general(searched) == "transform_query"
    spent = state(mode="none", relevance="incorrect", rewrites=1)
    assert edges.after_answer_general(spent) == "retrieve"


def test_a_search_that_found_nothing_asks_the_model_before_searching_again() -> None:
    on = {**RULES, "answers_general_questions": 1}
    irrelevant = [Document(page_content="about something else")]
    nothing = state(relevance="incorrect", rules=on, documents=[], rejected=irrelevant)
    assert edges.after_grading(nothing) == "answer_general"
    down = {**nothing, "rejected": []}  # the search failed or found nothing: said so, not guessed
    assert edges.after_grading(down) == "transform_query"
    tried = {**nothing, "general_tried": True}  # once a turn: then the rewritten search
    assert edges.after_grading(tried) == "transform_query"
    web = {**nothing, "web_available": True}  # the web brings new sources: searched first
    assert edges.after_grading(web) == "transform_query"
    now = {**nothing, "route": route("realtime")}  # what is true today no model knows
    assert edges.after_grading(now) == "transform_query"
    off = {**nothing, "rules": dict(RULES)}  # general questions off
    assert edges.after_grading(off) == "transform_query"


def test_route_question_without_a_verdict_retrieves() -> None:
    assert edges.route_question(state(route=None)) == "retrieve"


def test_fan_out_sends_one_branch_per_sub_question_and_one_for_the_whole() -> None:
    sends = edges.fan_out(state(sub_questions=["a?", "b?", "c?"], standalone="a and b and c?"))
    assert isinstance(sends, list) and all(isinstance(s, Send) for s in sends)
    assert [s.arg for s in sends] == [
        {"sub_question": "a?", "index": 0},
        {"sub_question": "b?", "index": 1},
        {"sub_question": "c?", "index": 2},
        {"sub_question": "a and b and c?", "index": 3},
    ]
    assert edges.fan_out(state(sub_questions=["only one"])) == "retrieve"


@pytest.mark.parametrize(
    ("relevance", "rewrites", "web", "searches", "expected"),
    [
        ("correct", 0, True, 0, "assess"),
        ("incorrect", 0, True, 0, "transform_query"),
        ("incorrect", 1, True, 0, "web_search"),
        ("incorrect", 1, True, 1, "generate"),
        ("incorrect", 1, False, 0, "generate"),
    ],
)
def test_after_grading(
    relevance: str, rewrites: int, web: bool, searches: int, expected: str
) -> None:
    s = state(relevance=relevance, rewrites=rewrites, web_available=web, web_searches=searches)
    s["documents"] = [Document(page_content="kept")] if relevance == "correct" else []
    assert edges.after_grading(s) == expected


def test_kept_documents_are_assessed_before_writing() -> None:
    kept = state(relevance="incorrect", rewrites=1, web_available=False)
    kept["documents"] = [Document(page_content="the top hit, kept")]
    assert edges.after_grading(kept) == "assess"


def test_a_search_read_whole_is_written_without_assess() -> None:
    whole = state(relevance="correct", read_whole=True)
    whole["documents"] = [Document(page_content="likely"), Document(page_content="also likely")]
    assert edges.after_grading(whole) == "generate"
    whole["read_whole"] = False  # one likely source: its odds are asked first
    assert edges.after_grading(whole) == "assess"


def test_after_transform_uses_the_web_only_within_budget() -> None:
    assert edges.after_transform(state(web_available=True, web_searches=0)) == "web_search"
    assert edges.after_transform(state(web_available=False)) == "retrieve"


def test_after_web_search_falls_back_to_the_knowledge_base_once() -> None:
    web_doc = Document(page_content="x", metadata={"origin": "web"})
    assert edges.after_web_search(state(documents=[], retrievals=0)) == "retrieve"
    assert edges.after_web_search(state(documents=[], retrievals=1)) == "generate"
    assert edges.after_web_search(state(documents=[web_doc], retrievals=0)) == "generate"


def test_after_generate_checks_only_answers_with_sources() -> None:
    doc = Document(page_content="x")
    assert edges.after_generate(state(mode="rag", documents=[doc])) == "self_check"
    assert edges.after_generate(state(mode="direct", documents=[])) == "finalize"
    assert edges.after_generate(state(mode="rag", documents=[])) == "finalize"
    assert edges.after_generate(state(mode="fallback")) == "finalize"
    assert edges.after_generate(state(mode="none", documents=[doc])) == "finalize"
    no_check = {**RULES, "checks_answers": 0}
    assert edges.after_generate({"rules": no_check, "mode": "rag", "documents": [doc]}) == (
        "finalize"
    )
    declines_only = {
        **no_check,
        "declines_unlikely_answers": 1,
    }  # the check runs for the decline alone
    assert edges.after_generate({"rules": declines_only, "mode": "rag", "documents": [doc]}) == (
        "self_check"
    )


@pytest.mark.parametrize(
    ("verdict", "regens", "rewrites", "category", "expected"),
    [
        (check(True, True), 0, 0, "simple", "finalize"),
        (check(False, True), 0, 0, "simple", "generate"),
        (check(False, True), 1, 0, "simple", "finalize"),
        (check(True, False), 0, 0, "simple", "finalize"),  # no web: the search is not redone
        (check(False, False), 0, 0, "simple", "finalize"),  # unanswerable goes first
        (None, 0, 0, "simple", "finalize"),
    ],
)
def test_after_self_check(
    verdict: Any, regens: int, rewrites: int, category: str, expected: str
) -> None:
    s = state(check=verdict, regenerations=regens, rewrites=rewrites, route=route(category))
    assert edges.after_self_check(s) == expected


@pytest.mark.parametrize(
    ("verdict", "rewrites", "web_searches", "category", "expected"),
    [
        (check(True, False), 0, 0, "simple", "transform_query"),
        (check(False, False), 0, 0, "simple", "transform_query"),  # unanswerable goes first
        (check(True, False), 1, 0, "simple", "finalize"),
        (check(True, False), 0, 1, "simple", "finalize"),
        (check(True, False), 0, 0, "complex", "finalize"),
        (check(False, True), 0, 0, "simple", "generate"),
    ],
)
def test_a_declined_answer_tries_the_web_within_budget(
    verdict: Any, rewrites: int, web_searches: int, category: str, expected: str
) -> None:
    s = state(
        check=verdict,
        rewrites=rewrites,
        web_searches=web_searches,
        web_available=True,
        route=route(category),
    )
    assert edges.after_self_check(s) == expected


def test_missing_settings_spend_nothing() -> None:
    s = {"relevance": "incorrect", "web_available": True}
    assert edges.after_grading(s) == "generate"  # type: ignore[arg-type]


def test_agreed_retrieval_is_checked_like_any_other() -> None:
    doc = Document(page_content="x")
    confident = state(mode="rag", documents=[doc], retrieval_confident=True)
    assert edges.after_generate(confident) == "self_check"
