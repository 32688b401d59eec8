"""Finalize: pick the answer to return, rate confidence, and append it to the chat."""

from __future__ import annotations

from typing import Literal, NamedTuple, cast

from adaptive_rag.core.judges import Logistic, load_judge
from adaptive_rag.core.text import entities_of, key, language_of
from adaptive_rag.prompts import generate as prompts
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.reading import (
    ANSWERED,
    GROUNDED,
    PASSED,
    links_of,
    rule_on,
    verdict_score,
)
from adaptive_rag.schema.state import REJECTED, REMEMBERED, State
from adaptive_rag.schema.updates import Update
from adaptive_rag.schema.values import COUNTERS, Decline, Diagnostics, Recall, Source
from adaptive_rag.services import Services
from langchain_core.messages import AIMessage

_BASE = {"correct": 0.8, "incorrect": 0.4}


def passed(state: State) -> bool:
    """Return whether the latest self-check passed both questions."""
    check = state.get("check")
    return bool(check and check["grounded"] and check["answers_question"])


def failed(state: State) -> bool:
    """Whether the turn has nothing to rate: refused input, a clarifying question, no answer."""
    return bool(state.get("error") or state.get("clarification")) or (
        state.get("mode", "none") == "none" and not state.get("decline")
    )


def confidence(state: State) -> float:
    """Rate 0-1 how likely the answer (or decline) is right: the calibrated map when shipped.

    A failed turn is 0 whatever the map says: the map was fitted on answers and declines only.
    (A clarifying question is not an answer either.)
    """
    if failed(state):
        return 0.0
    fitted = confidence_map()
    if fitted is not None:
        return round(fitted.probability(confidence_features(state)), 2)
    return heuristic_confidence(state)


def confidence_map() -> Logistic | None:
    """Return the shipped confidence map (core/judges/weights/confidence.json), or None."""
    return load_judge("confidence")


def heuristic_confidence(state: State) -> float:
    """Rate 0-1 how far to trust the answer from grading and self-check, before calibration."""
    mode = state.get("mode", "none")
    if state.get("error") or mode == "none":
        return 0.0
    if mode == "direct":
        return 0.5
    if mode == "fallback":
        return 0.2
    if mode == "synthesis":  # fused parallel searches; hops alone rate low until checked
        value = 0.8 if state.get("sub_searches") else 0.2
    elif not state.get("documents"):
        value = 0.3  # answered from documents the grader rejected
    else:
        verdict = state.get("relevance") or ("correct" if state.get("retrieval_confident") else "")
        value = _BASE.get(verdict, 0.6)
        if not state.get("graded", True):
            value -= 0.1
    if not any(s["cited"] for s in state.get("sources") or []):
        value -= 0.1
    check = state.get("check")
    if check is None and state.get("retrieval_confident"):
        value = min(value, 0.75)  # unchecked, but both search channels agreed on the source
    elif check is None:
        value = min(value, 0.6)
    elif passed(state):
        value += 0.15
    else:
        value = min(value * 0.5, 0.4)
    return round(min(max(value, 0.0), 1.0), 2)


def confidence_features(state: State) -> dict[str, float]:
    """Describe how an answer was reached, as numbers the calibrated confidence is fitted on."""
    check = state.get("check")
    route_info = state.get("route")
    route = route_info["category"] if route_info else "simple"
    mode = state.get("mode", "none")
    return {
        "declined": float(bool(state.get("decline"))),
        "direct": float(mode in ("direct", "fallback")),
        "synthesis": float(mode == "synthesis"),
        "agreement": float(bool(state.get("retrieval_confident"))),
        "graded_correct": float(state.get("relevance") == "correct"),
        "checked": float(check is not None),
        "grounded": float(bool(check and check["grounded"])),
        "answers_question": float(bool(check and check["answers_question"])),
        "cited": float(any(s["cited"] for s in state.get("sources") or [])),
        "retried": float(state.get("regenerations", 0) > 0 or state.get("rewrites", 0) > 0),
        "chinese": float(state.get("language") == "zh"),
        "complex": float(route == "complex"),
        "assessed": float(state.get("support") is not None),
        "support": float(state.get("support") or 0.0),
        "relevance_best": max(state.get("doc_scores") or [0.0]),
        "grounding_score": float((state.get("answer_features") or {}).get("grounding_score", 0.0)),
        "answerable_p": answerable_probability(state),
        "owned": float(bool(state.get("owned"))),
    }


def answerable_probability(state: State) -> float:
    """Return the answerability judge's last probability this turn (0.5 when it gave none)."""
    probability = state.get("answerable_p")
    return 0.5 if probability is None else float(probability)


class Settled(NamedTuple):
    """What a turn ends with, before the decline wording, the unverified note and notices."""

    answer: str
    sources: list[Source]
    decline: Decline | None
    unverified: bool
    message_id: str
    """Id of the streamed generation this final text replaces in a chat UI ('' when none)."""


def declines_unsupported(state: State) -> bool:
    """Whether an answer the check could not support is declined rather than marked unverified.

    `answer_check="decline"` says so for every question; a question about the knowledge base's
    own things (state `owned`) is declined under `mark` too, unless `declines="never"`: a guess
    about a team's own policy or product is worse than no answer.
    """
    owned = bool(state.get("owned")) and rule_on(state, "declines_unlikely_answers")
    return rule_on(state, "declines_unsupported_answers") or owned


def settle(state: State) -> Settled:
    """Return the answer, its sources, the decline (if any), and whether it is left unverified."""
    answer, sources = state.get("answer") or "", list(state.get("sources") or [])
    check, declined = state.get("check"), state.get("decline")
    best, best_score = state.get("best_answer") or "", state.get("best_score", -1)
    best_sources, best_id = list(state.get("best_sources") or []), state.get("best_id") or ""
    answer_id = state.get("answer_id") or ""
    if state.get("error"):
        return Settled(
            state["error"], [], Decline(reason="invalid_input", detail=state["error"]), False, ""
        )
    if state.get("clarification"):
        detail = "the question refers to something the conversation does not hold"
        decline = Decline(reason="needs_clarification", detail=detail)
        return Settled(state["clarification"], [], decline, False, "")
    if declined or state.get("mode") == "none":
        # a later attempt found nothing, came back empty or failed: an earlier answer the check
        # found answers the question is still better (marked unverified unless it passed)
        if best and best_score in (ANSWERED, PASSED):
            if best_score == ANSWERED and declines_unsupported(state):
                detail = "an earlier answer had no support and the next came back without one"
                return Settled("", [], Decline(reason="unsupported", detail=detail), False, "")
            return Settled(best, best_sources, None, True, best_id)
        return Settled(answer, sources, declined, False, answer_id)
    if check is None or passed(state):
        return Settled(answer, sources, None, False, answer_id)
    if best and best_score > verdict_score(check):
        if best_score == GROUNDED:  # the better attempt found no answer: its decline stands
            detail = "an earlier attempt found that the sources do not state the answer"
            return Settled("", sources, Decline(reason="not_in_sources", detail=detail), False, "")
        answer, sources, answer_id = best, best_sources, best_id
    unsupported = max(best_score, verdict_score(check)) < GROUNDED
    if unsupported and declines_unsupported(state):
        detail = check["feedback"] or "the self-check found no support"
        return Settled("", [], Decline(reason="unsupported", detail=detail), False, answer_id)
    return Settled(answer, sources, None, True, answer_id)


def _label(source: Source) -> str:
    """Name a source by its title, and by where it is when that says more."""
    title, where = source["title"], source["source"]
    return f"{title} ({where})" if title and where and where != title else title or where


def chat_text(answer: str, sources: list[Source], language: str, list_sources: bool) -> str:
    """Return the chat message: the answer, with its cited sources under it for message-only UIs."""
    cited = [s for s in sources if s["cited"]] if list_sources else []
    if not cited:
        return answer
    lines = [f"- [{s['id']}] {_label(s)}" for s in cited]
    return "\n".join([answer, "", prompts.SOURCES_HEADING[language], *lines])


def searched_names(state: State) -> set[str]:
    """Return the entity keys the turn's searches started from: the question's, the bridges."""
    bridges = [name for hop in state.get("hops") or [] for name in hop["bridges"]]
    return {*entities_of(state.get("standalone") or ""), *(key(name) for name in bridges)}


def diagnostics(state: State, cache: Literal["off", "miss", "hit"], *notes: str) -> Diagnostics:
    """Say what the turn cost and what degraded, from the run's counters."""
    return cast(
        Diagnostics,
        {
            "steps": [*(state.get("steps") or []), "finalize"],
            **{name: state.get(name, 0) for name in COUNTERS},
            "notes": [*(state.get("notes") or []), *notes],
            "hops": list(state.get("hops") or []),
            "links": links_of(state.get("documents") or [], searched_names(state)),
            "answer_cache": cache,
            "support": state.get("support"),
            "judgments": list(state.get("judgments") or []),
        },
    )


def recalled_answer(state: State, recalled: Recall, in_messages: bool) -> Update:
    """Return an earlier answer as it was given, saying where it came from."""
    output = recalled["output"]
    how = f"the same question ({recalled['question']!r})"
    note = f"recall: answered from the answer cache: {how}, knowledge-base revision"
    answer, sources = str(output["answer"]), cast(list[Source], output["sources"])
    shown = chat_text(answer, sources, output["language"], in_messages)
    return {
        **cast(Update, {name: output[name] for name in REMEMBERED if name in output}),
        "steps": "finalize",
        "diagnostics": diagnostics(state, "hit", f"{note} {recalled['revision']}"),
        "messages": [AIMessage(content=shown)],
    }


def finalize(state: State, ctx: Context, services: Services) -> Update:
    """Return the checked answer, the best one so far marked unverified, or an honest decline."""
    recalled = state.get("recalled")
    if recalled:
        return recalled_answer(state, recalled, ctx.sources_in_messages)
    answer, sources, decline, unverified, message_id = settle(state)
    language = state.get("language") or language_of(state.get("query") or "")
    notices = list(state.get("notices") or [])
    if unverified:
        answer = f"{answer}\n\n{prompts.UNVERIFIED_NOTE[language]}"
        notices.append(prompts.UNVERIFIED_NOTE[language])
    answerable = decline is None
    if decline and decline["reason"] in prompts.DECLINE[language]:
        answer = prompts.DECLINE[language][decline["reason"]].replace("{detail}", decline["detail"])
        notices = []
        route = state.get("route")
        if route and route["category"] == "realtime" and state.get("web_status") != "ok":
            reason = state.get("web_status") or "web search unavailable"
            note = prompts.WEB_UNAVAILABLE_NOTE[language].format(reason=reason)
            answer = f"{note}\n\n{answer}"
            notices = [note]
        # the documents looked at stay listed (uncited), so the user can check the decline
        sources = [Source(**{**s, "cited": False}) for s in (state.get("sources") or sources)]
    shown = chat_text(answer, sources, language, answerable and ctx.sources_in_messages)
    return {
        "steps": "finalize",
        "answer": answer,
        "sources": sources,
        "confidence": confidence({**state, "decline": decline, "sources": sources}),
        "verified": passed(state) and answerable and rule_on(state, "checks_answers"),
        "answerable": answerable,
        "decline": decline,
        "notices": notices,
        "language": language,
        "diagnostics": diagnostics(state, "miss" if rule_on(state, "uses_answer_cache") else "off"),
        # the id of the streamed tokens, so a chat UI replaces them with this final text
        "messages": [
            AIMessage(
                content=shown,
                name=REJECTED if state.get("error") else None,
                id=message_id or None,
            )
        ],
    }
