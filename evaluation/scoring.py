"""Score one answer: Acc (gold contained), EM, F1, and declines read from the typed output."""

from __future__ import annotations

from typing import Any

from adaptive_rag.core.text import answers_in, cited_numbers, language_of, without_citations
from adaptive_rag.evaluation.metrics import contains, exact_match, f1


def answer_text(answer: str, notices: list[str] | tuple[str, ...] = ()) -> str:
    """Strip the output's notices (typed, not matched from prompt texts) and the citations."""
    shown = {n.strip() for n in notices}
    kept = [block.strip() for block in answer.split("\n\n") if block.strip() not in shown]
    return without_citations(" ".join(kept))


def score(out: dict[str, Any], q: dict[str, Any]) -> dict[str, Any]:
    """Score an output state against a question; a decline is read from `answerable`.

    Acc is `correct`'s; EM and F1 are against the flat gold answers (a question without any,
    small talk, scores them as Acc).
    """
    declined = not out.get("answerable", True)
    text = answer_text(out.get("answer") or "", out.get("notices") or [])
    acc = correct(text, declined, q)
    if q["impossible"] or declined or not q["answers"]:
        em = f1_score = acc
    else:
        em, f1_score = exact_match(text, q["answers"]), f1(text, q["answers"])
    asked = language_of(q["question"])
    return {
        "acc": acc,
        "em": em,
        "f1": f1_score,
        "declined": declined,
        "decline_reason": (out.get("decline") or {}).get("reason", ""),
        "language": asked,
        "language_ok": declined or answers_in(text, asked),
        "cited": any(s.get("cited") for s in out.get("sources") or []),
        "citations_valid": _citations_valid(out),
    }


def correct(text: str, declined: bool, q: dict[str, Any]) -> float:
    """Acc of an answer's scored text (see `answer_text`): 1.0 when right, else 0.0.

    An unanswerable question is answered correctly only by a decline; an answerable one only by
    an answer, so a decline is never right there. An answerable question with no gold answers
    (small talk) is right when answered with any text; one with `requires` (groups of golds)
    only when the text holds a gold of every group; any other one when it holds a gold answer.
    """
    if q["impossible"]:
        return float(declined)
    if declined:
        return 0.0
    groups = [[g] if isinstance(g, str) else list(g) for g in q.get("requires") or [] if g]
    if groups:
        return float(all(contains(text, group) for group in groups))
    if not q["answers"]:
        return float(bool(text.strip()))
    return contains(text, q["answers"])


def _citations_valid(out: dict[str, Any]) -> bool:
    """Whether every [n] in the answer points at a listed source (and there is at least one)."""
    numbers = cited_numbers(out.get("answer") or "")
    listed = {s["id"] for s in out.get("sources") or []}
    return bool(numbers) and all(n in listed for n in numbers)
