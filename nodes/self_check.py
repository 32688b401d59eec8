"""Self-check (Self-RAG's critique) by rules and a fitted judge: is it grounded, and answerable?

The grounding check (core.grounding) reads each sentence against the sources it cites and
repairs the citations; the answerability judge (core.judges.answerability) decides from the turn's
signals whether the sources answer the question at all; an answer that opens by saying its
sources do not state it, citing nothing, is declined by rule (core.grounding.unsaid), and a no
that a cited sentence states (core.grounding.stated) is not put to the judge. None of them
calls a model.
"""

from __future__ import annotations

from dataclasses import replace

from adaptive_rag.core.grounding import (
    UNMEASURED,
    Focus,
    Grounding,
    SentenceCheck,
    admits_lacking,
    check,
    focus_of,
    says_sources_lack,
    stated_no,
    stated_yes,
    supported_only,
    unmeasured,
    unnamed_subject,
)
from adaptive_rag.core.judges import ANSWER_FEATURES, answer_features, decline_below
from adaptive_rag.core.question import asks_yes_no
from adaptive_rag.core.text import cited_sources
from adaptive_rag.knowledge.sources import source_texts
from adaptive_rag.nodekit.calling import judged, note, progress
from adaptive_rag.nodekit.citing import sources_for
from adaptive_rag.nodekit.owning import owned_now
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.reading import from_web, rule_on, verdict_score
from adaptive_rag.schema.state import State
from adaptive_rag.schema.updates import Update
from adaptive_rag.schema.values import Decline, JudgeMethod, SelfCheck
from adaptive_rag.services import Services

RULE_DECLINE_BELOW = 0.42
"""With no fitted judge shipped: decline when assess's odds fall below this (its own rule)."""


def answer_body(answer: str, notices: list[str]) -> str:
    """Return the answer without the notices generate put around it."""
    parts = [p for p in answer.split("\n\n") if p not in notices]
    return "\n\n".join(parts)


def self_check(state: State, ctx: Context, services: Services) -> Update:
    """Check the latest answer's grounding and repair its citations; decline if unanswerable."""
    docs = list(state.get("documents") or []) or list(state.get("rejected") or [])
    question = state.get("standalone") or ""
    notices = list(state.get("notices") or [])
    body = answer_body(state.get("answer") or "", notices)
    sources = source_texts(docs)
    grounding = check(body, sources, question)
    update: Update = {}
    checking = rule_on(state, "checks_answers")  # off: grounding only signals answerability
    owned = owned_now(state)
    if owned:
        update["owned"] = owned
    # the model's own words (its citations, before any repair): the sources lack the answer
    lacks = says_sources_lack(body) or says_sources_lack(grounding.answer)
    lacks = lacks or admits_lacking(body, question)  # a yes or no taken back by its own words
    focus = _focus(question, grounding.answer, sources) if checking else None
    restated = focus is not None and focus.known and focus.held  # a yes or no its sources hold
    if checking and owned and grounding.unsupported and lead_stands(grounding, restated):
        pruned = supported_only(grounding.answer, sources, question)
        if pruned:  # about its own things, the answer says only what its sources support
            left_out = len(grounding.unsupported)
            note(update, f"self_check: left out {left_out} sentence(s) no source supports")
            grounding = replace(check(pruned, sources, question), changed=True)
            focus = _focus(question, grounding.answer, sources)
    answer = state.get("answer") or ""
    if checking and grounding.changed:
        answer = answer.replace(body, grounding.answer)
        update["answer"] = answer
        update["sources"] = sources_for(grounding.answer, docs)
    # a yes or no to a question of several parts (two articles compared) restates many of its
    # terms: its unchecked first claim is read like any answer's, not taken as a guess
    wide = focus is not None and focus.wide
    guessed = bool(owned) and not (lacks or restated or wide) and unchecked_lead(grounding)
    # how much / how many answered with no amount: a quality in place of the figure asked for
    vague = checking and not lacks and unmeasured(question, grounding.answer)
    holds = grounding.grounded and not guessed and not vague
    grounded = holds or not checking
    why = "" if holds else UNMEASURED if vague else UNCHECKED_LEAD
    if checking:
        verdict = "grounded" if holds else "unsupported"
        feedback = grounding.feedback or (f"{why} ({owned})" if why == UNCHECKED_LEAD else why)
        judged(update, "self_check", "rule", grounding.score, verdict, feedback)
    route = state.get("route")
    features = answer_features(
        question,
        grounding.answer,
        sources,
        grounding,
        list(state.get("doc_scores") or []),
        state.get("support"),
        state.get("answer_logprob"),
        complex_route=bool(route and route["category"] == "complex"),
        chinese=state.get("language") == "zh",
    )
    update["answer_features"] = {name: round(features[name], 4) for name in ANSWER_FEATURES}
    cited = cited_sources(grounding.answer, sources)
    lacking = focus.why() if focus is not None else ""
    lacking = lacking or (
        _spread(question, grounding.answer, cited or sources, focus) if owned else ""
    )
    lacking = lacking or (_misbound(state, question, cited, sources) if checking else "")
    if lacks:
        answerable, probability, detail = False, None, "the answer says its sources do not state it"
    elif lacking:
        answerable, probability, detail = False, None, lacking
    elif stated := stated_no(question, grounding.answer, cited, focus):
        answerable, probability, detail = True, None, f"its cited source states the no: {stated!r}"
        update["answerable_p"] = None  # not judged: an earlier writing's probability is not this
    else:
        answerable, probability, detail = _answerable(features, state, ctx, services, update)
    answerable = answerable or not rule_on(state, "declines_unlikely_answers")
    method: JudgeMethod = "fitted" if probability is not None else "rule"
    verdict = "answer" if answerable else "decline"
    judged(update, "self_check", method, probability, verdict, detail)
    if probability is not None:
        update["answerable_p"] = round(probability, 4)  # as the judgment records it
    result = SelfCheck(
        grounded=grounded,
        answers_question=answerable,
        feedback=(grounding.feedback or why)[:500],
    )
    update["check"] = result
    if not answerable:
        update["decline"] = Decline(reason="not_in_sources", detail=detail)
    progress({"step": "self_check", **result})
    if verdict_score(result) > state.get("best_score", -1):
        update["best_answer"] = answer
        update["best_score"] = verdict_score(result)
        update["best_sources"] = update.get("sources") or state.get("sources") or []
        update["best_id"] = state.get("answer_id") or ""
    return update


UNCHECKED_LEAD = "the answer's first claim could not be checked against its sources"
"""Feedback when a question about the knowledge base's own things gets an unchecked answer."""


def _lead(grounding: Grounding) -> SentenceCheck | None:
    """Return the answer's first sentence with content (its claim), if any."""
    return next((s for s in grounding.sentences if s.status != "no_content"), None)


def unchecked_lead(grounding: Grounding) -> bool:
    """Whether the answer's first sentence with content could not be checked (core.grounding)."""
    lead = _lead(grounding)
    return lead is not None and lead.status == "unchecked"


def lead_stands(grounding: Grounding, restated: bool) -> bool:
    """Whether the answer's first claim stands: supported, or a yes/no whose focus is held."""
    lead = _lead(grounding)
    return lead is not None and (
        lead.status == "supported" or lead.status == "unchecked" and restated
    )


def _focus(question: str, answer: str, sources: list[str]) -> Focus | None:
    """Return which of a yes/no question's focus the answer's sources hold (None: no yes/no).

    The sources read are those the answer cites, else all it was given (core.grounding.focus).
    """
    if not asks_yes_no(question) or not sources:
        return None
    return focus_of(question, cited_sources(answer, sources) or sources)


def _spread(question: str, answer: str, read: list[str], focus: Focus | None) -> str:
    """Say why a yes to an owned question is not what its sources state ('' when it is).

    `read`: the sources the answer cites, else all it was given (as its focus was read). They
    hold the question's focus only spread over sentences on other things
    (core.grounding.stated_yes): a yes put together from them is the model's, not the documents'.
    """
    if focus is None or stated_yes(question, answer, read, focus):
        return ""
    return "no one sentence of the sources holds what the question asks: " + ", ".join(focus.terms)


def _misbound(state: State, question: str, cited: list[str], sources: list[str]) -> str:
    """Say why an answer is bound to a source on another thing ('' when it is not).

    The question names one thing; the sources the answer cites do not name it, and another
    source it was shown does (core.grounding.unnamed_subject). Not for a complex question or a
    synthesis (a part of those may be answered from a source on another of its things), nor an
    answer from web results (pages that name their subject in ways of their own).
    """
    route = state.get("route")
    if route and route["category"] == "complex" or state.get("mode") == "synthesis":
        return ""
    if any(from_web(d) for d in state.get("documents") or []):
        return ""
    name = unnamed_subject(question, cited, sources)
    return (
        f"the sources cited do not name {name!r}, which another source found does" if name else ""
    )


def _answerable(
    features: dict[str, float], state: State, ctx: Context, services: Services, update: Update
) -> tuple[bool, float | None, str]:
    """Return whether the sources answer the question, the judge's probability, and why.

    The judge was fitted on answers from the knowledge base: one written from web results is
    not declined by it (the web search was the corrective step already).
    """
    if any(from_web(d) for d in state.get("documents") or []):
        return True, None, "written from web results: not judged"
    judge, fallback = services.answer_judge_for(ctx)
    if fallback:
        note(update, f"self_check: {fallback}")
    if judge is None:  # no judge shipped: decide by assess's odds alone
        support = state.get("support")
        if support is None:
            return True, None, "no answerability judge and no odds: answered"
        detail = f"the model rates {support:.2f} that the documents found state the answer"
        return support >= RULE_DECLINE_BELOW, None, detail
    probability = judge.probability(features)
    threshold = decline_below(judge)
    detail = f"p={probability:.2f} that the sources answer it (declined below {threshold:.2f})"
    return probability >= threshold, probability, detail
