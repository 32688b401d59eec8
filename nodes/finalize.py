"""Finalize: pick the answer to return, rate confidence, and append it to the chat."""

from __future__ import annotations

from typing import Any

from adaptive_rag.graph.context import Context
from adaptive_rag.graph.state import REJECTED, Diagnostics, State, verdict_score
from adaptive_rag.services import Services
from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

UNVERIFIED_NOTE = "(Unverified: this answer did not pass the fact check within its budget.)"
_BASE = {"correct": 0.8, "ambiguous": 0.6, "incorrect": 0.4}


def passed(state: State) -> bool:
    """Return whether the latest self-check read cleanly and passed both questions."""
    check = state.get("check")
    return bool(check and check["parsed"] and check["grounded"] and check["answers_question"])


def confidence(state: State) -> float:
    """Rate 0-1 how far to trust the answer, from grading and self-check."""
    mode = state.get("mode", "none")
    if state.get("error") or mode == "none":
        return 0.0
    if mode == "direct":
        return 0.5
    if mode == "fallback":
        return 0.2
    if mode == "synthesis":
        subs = state.get("sub_answers") or []
        known = sum(1 for s in subs if s["answer"].strip().lower() != "unknown")
        value = 0.2 + 0.6 * known / max(len(subs), 1)
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
        value = min(value, 0.75)  # both search channels agreed on the source; not self-checked
    elif check is None:
        value = min(value, 0.6)
    elif passed(state):
        value += 0.15
    elif not check["parsed"]:
        value = min(value, 0.5)
    else:
        value = min(value * 0.5, 0.4)
    return round(min(max(value, 0.0), 1.0), 2)


def finalize(state: State, runtime: Runtime[Context], services: Services) -> dict[str, Any]:
    """Return the checked answer, or the best one so far marked unverified."""
    answer, sources = state.get("answer") or "", state.get("sources") or []
    check = state.get("check")
    best, best_score = state.get("best_answer") or "", state.get("best_score", -1)
    if state.get("error"):
        answer, sources = state["error"], []
    elif state.get("clarification"):
        answer, sources = state["clarification"], []
    elif best and state.get("mode") in ("fallback", "none"):
        # a later search found nothing (or generation failed): the checked earlier answer is better
        answer, sources = best, state.get("best_sources") or []
        answer = f"{answer}\n\n{UNVERIFIED_NOTE}"
    elif check is not None and not passed(state):
        if best and best_score > verdict_score(check):
            answer, sources = best, state.get("best_sources") or []
        answer = f"{answer}\n\n{UNVERIFIED_NOTE}"
    steps = [*(state.get("steps") or []), "finalize"]
    diagnostics = Diagnostics(
        steps=steps,
        retrievals=state.get("retrievals", 0),
        generations=state.get("generations", 0),
        rewrites=state.get("rewrites", 0),
        regenerations=state.get("regenerations", 0),
        web_searches=state.get("web_searches", 0),
        model_calls=state.get("model_calls", 0),
        tokens_in=state.get("tokens_in", 0),
        tokens_out=state.get("tokens_out", 0),
        notes=list(state.get("notes") or []),
    )
    return {
        "steps": "finalize",
        "answer": answer,
        "sources": sources,
        "confidence": 0.0
        if state.get("error") or state.get("clarification")
        else confidence(state),
        "verified": passed(state) and not state.get("error"),
        "diagnostics": diagnostics,
        "messages": [AIMessage(content=answer, name=REJECTED if state.get("error") else None)],
    }
