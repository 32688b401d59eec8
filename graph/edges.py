"""Edge functions: pure reads of state that choose the next node (every loop on a budget)."""

from __future__ import annotations

from typing import Literal

from adaptive_rag.schema.reading import (
    answered_before,
    budget,
    can_search_web,
    from_web,
    has_history,
    rule_on,
)
from adaptive_rag.schema.state import State, SubQuestionState
from langgraph.types import Send


def can_rewrite(state: State) -> bool:
    """Whether another query rewrite fits the budget."""
    return state.get("rewrites", 0) < budget(state, "rewrite_budget")


def after_intake(state: State) -> Literal["recall", "classify", "finalize"]:
    """Refused input goes straight to the answer that says why; a first question may be cached."""
    if state.get("error"):
        return "finalize"
    cached = rule_on(state, "uses_answer_cache") and not has_history(state)
    return "recall" if cached else "classify"


def after_recall(state: State) -> Literal["classify", "finalize"]:
    """Return an earlier answer to the same question as it was; else answer it now."""
    return "finalize" if state.get("recalled") else "classify"


def after_finalize(state: State) -> Literal["remember", "__end__"]:
    """Keep a fresh, grounded, first-turn answer from the knowledge base for the same question."""
    route = state.get("route")
    keep = (
        "recall" in (state.get("steps") or [])  # a first question, with the cache on
        and not state.get("recalled")
        and state.get("answerable") is True
        and not state.get("failures")
        and route is not None
        and route["category"] not in ("realtime", "general")
        and state.get("mode") != "direct"  # from the model's own knowledge, not the documents
        and (
            state.get("verified")
            or state.get("check") is None
            or not rule_on(state, "checks_answers")
        )
    )
    return "remember" if keep else "__end__"


def may_answer_generally(state: State) -> bool:
    """Whether a decline may be answered from the model's own knowledge instead (once a turn).

    Not a real-time question (what is true today no model knows), and not an invalid one.
    """
    decline = state.get("decline")
    return (
        may_ask_model(state)
        and not answered_before(state)
        and decline is not None
        and decline["reason"] in GENERAL_AFTER
    )


def may_ask_model(state: State) -> bool:
    """Whether the model's own knowledge may be asked this turn (once a turn).

    General questions are answered, and it is not a real-time question: what is true today no
    model knows.
    """
    route = state.get("route")
    return (
        rule_on(state, "answers_general_questions")
        and not state.get("general_tried")
        and not (route and route["category"] == "realtime")
    )


GENERAL_AFTER = (
    "no_documents",
    "no_relevant_documents",
    "not_in_sources",
    "empty_answer",
)
"""Declines that say the documents do not answer: the model's own knowledge may. Not a knowledge
base that could not be searched: the answer says so, with what to do."""


def route_question(
    state: State,
) -> Literal[
    "rewrite_with_history",
    "clarify",
    "generate",
    "answer_general",
    "retrieve",
    "decompose",
    "web_search",
]:
    """Send the question down the path its category deserves; unknown means retrieve."""
    route = state.get("route")
    category = route["category"] if route else "simple"
    if category == "follow_up":  # each of these runs at most once per turn
        if has_history(state) and not state.get("history_rewritten"):
            return "rewrite_with_history"
        if rule_on(state, "asks_to_clarify") and not state.get("clarified"):
            return "clarify"
        return "retrieve"
    if category == "general" and state.get("talk"):
        return "generate"  # a greeting, a sum, a translation: no fact to know or look up
    if category == "general":
        return "answer_general" if rule_on(state, "answers_general_questions") else "retrieve"
    if category == "complex":
        return "decompose"
    if category == "realtime" and can_search_web(state):
        return "web_search"
    return "retrieve"


def after_clarify(state: State) -> Literal["classify", "finalize"]:
    """Return the clarifying question as the answer, or classify the clarified question."""
    return "finalize" if state.get("clarification") else "classify"


def fan_out(state: State) -> list[Send] | Literal["retrieve", "hop"]:
    """Hop for a nested question; search parts in parallel; else retrieve."""
    if state.get("shape") == "sequential":
        return "hop"
    subs = state.get("sub_questions") or []
    if len(subs) < 2:
        return "retrieve"
    whole = SubQuestionState(sub_question=state.get("standalone") or "", index=len(subs))
    return [
        *(
            Send("sub_question", SubQuestionState(sub_question=q, index=i))
            for i, q in enumerate(subs)
        ),
        Send("sub_question", whole),
    ]


def after_hop(state: State) -> Literal["hop", "generate"]:
    """Hop again while the model needs another fact, has a new query, and the budget lasts."""
    hops = state.get("hops") or []
    if not hops or hops[-1]["done"] or len(hops) >= budget(state, "hop_budget"):
        return "generate"
    query = (state.get("next_query") or "").strip().casefold()
    if not query or query in {h["query"].strip().casefold() for h in hops}:
        return "generate"  # nothing new to search: a repeated query would find the same
    return "hop"


def may_ask_model_first(state: State) -> bool:
    """Whether a search that found nothing relevant asks the model before searching again.

    Only with the web off: a rewritten query then searches the same knowledge base, and a
    question the model may answer (answer_general keeps the knowledge base's own and rare names
    to the documents) needs no second search. Only when the search worked and graded what it found
    irrelevant (a knowledge base down is said so); once a turn; never for a real-time question.
    """
    return may_ask_model(state) and bool(state.get("rejected")) and not can_search_web(state)


def after_grading(
    state: State,
) -> Literal["assess", "generate", "transform_query", "web_search", "answer_general"]:
    """CRAG: use correct documents, search again (rewritten, or on the web) for incorrect ones.

    With the web off, the model's own knowledge is asked before the rewritten search (see
    `may_ask_model_first`). Kept documents are assessed before writing, unless the search was
    read whole: several likely sources already say the question is answerable there, and `assess`
    would read them all again.
    """
    if state.get("relevance") == "incorrect":
        if can_rewrite(state) and may_ask_model_first(state):
            return "answer_general"
        if can_rewrite(state):
            return "transform_query"
        if can_search_web(state):
            return "web_search"
    if not state.get("documents") or state.get("read_whole"):
        return "generate"
    return "assess"


def after_transform(state: State) -> Literal["web_search", "retrieve"]:
    """Search the web with the new query when possible, else the knowledge base again."""
    return "web_search" if can_search_web(state) else "retrieve"


def after_web_search(state: State) -> Literal["retrieve", "generate"]:
    """If the web gave nothing and the knowledge base was not searched yet, search it."""
    web_found = any(from_web(d) for d in state.get("documents") or [])
    if not web_found and state.get("retrievals", 0) == 0:
        return "retrieve"
    return "generate"


def after_generate(state: State) -> Literal["self_check", "answer_general", "finalize"]:
    """Check answers written from sources; never ask 'grounded?' of one that has none."""
    if state.get("decline"):
        return "answer_general" if may_answer_generally(state) else "finalize"
    has_sources = bool(state.get("documents"))
    checkable = state.get("mode") in ("rag", "synthesis", "regenerate") and has_sources
    wanted = rule_on(state, "checks_answers") or rule_on(state, "declines_unlikely_answers")
    return "self_check" if checkable and wanted else "finalize"


def after_self_check(
    state: State,
) -> Literal["finalize", "generate", "transform_query", "answer_general"]:
    """Self-RAG: regenerate if ungrounded; if the sources do not answer, try the web (budgeted).

    A declined question searches again only where new sources can come from: the web. The
    knowledge base searched again with a rewritten query finds what the first search found.
    """
    check = state.get("check")
    if check is None or (check["grounded"] and check["answers_question"]):
        return "finalize"
    if not check["answers_question"]:
        route = state.get("route")
        web = can_search_web(state) and can_rewrite(state)
        if web and not (route and route["category"] == "complex"):
            return "transform_query"
        return "answer_general" if may_answer_generally(state) else "finalize"
    regenerated = state.get("regenerations", 0)
    return "generate" if regenerated < budget(state, "regeneration_budget") else "finalize"


def after_answer_general(state: State) -> Literal["finalize", "retrieve", "transform_query"]:
    """Return a general-knowledge answer or the decline it did not replace; else look it up.

    A question whose search found nothing relevant is searched again, rewritten.
    """
    if state.get("mode") == "direct" or state.get("decline"):
        return "finalize"
    if state.get("relevance") == "incorrect" and can_rewrite(state):
        return "transform_query"
    return "retrieve"
