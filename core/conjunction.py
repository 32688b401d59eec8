"""A yes/no question that joins claims ("Does A claim X, while B reports Y?"), claim by claim.

Such a question is true only when every claim is: each claim is looked up and answered on its
own, over the sources its own search finds, and the verdicts are joined by rule (yes only when
every claim's answer is yes). English only: a Chinese question is answered whole.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial

from adaptive_rag.core.shape import asks_yes_no

_AUX = r"(?:does|did|do|is|are|was|were|has|have|had|can|could|will|would)"
_JOINS = re.compile(rf",?\s+while\s+|,?\s+whereas\s+|,\s+and\s+(?={_AUX}\b)", re.IGNORECASE)
"""Where a claim ends and the next begins: "…, while B …", "…, and did B …"."""
_OPENS = re.compile(rf"^\s*{_AUX}\b", re.IGNORECASE)
_YES_NO = re.compile(r"^\W*(yes|no)\b", re.IGNORECASE)
_CITATION = re.compile(r"\[(\d+)\]")
_MIN_WORDS = 4
"""A claim shorter than this is not one ("…, and is it true?")."""


def claims_of(question: str) -> list[str]:
    """Return the claims a yes/no question joins, each as a question; [] for any other question.

    "Does the Fortune article claim X, while the TechCrunch article reports Y?" gives "Does the
    Fortune article claim X?" and "Is it true that the TechCrunch article reports Y?".
    """
    text = question.strip().rstrip("?？").strip()
    if not _OPENS.match(text) or not asks_yes_no(question):
        return []
    parts = [p.strip() for p in _JOINS.split(text)]
    if len(parts) < 2 or any(len(p.split()) < _MIN_WORDS for p in parts):
        return []
    claims = [f"{parts[0]}?"]
    for part in parts[1:]:
        if _OPENS.match(part):
            claims.append(f"{part[0].upper()}{part[1:]}?")
        else:
            claims.append(f"Is it true that {part}?")
    return claims


def verdict_of(answer: str) -> bool | None:
    """Read a claim's answer: True for an opening yes, False for no, None when it opens neither."""
    found = _YES_NO.match(answer)
    return None if found is None else found.group(1).lower() == "yes"


def joined(answers: Sequence[str], numbering: Sequence[Sequence[int]]) -> str:
    """Write the question's answer from its claims' answers: the verdict, then each claim's words.

    `numbering[i][n - 1]` is the number in the joined sources of claim i's source [n]; a claim's
    own opening yes or no is dropped (the verdict says it once). Yes only when every claim's
    answer is yes.
    """
    verdict = "Yes" if answers and all(verdict_of(a) for a in answers) else "No"
    sentences = []
    for answer, numbers in zip(answers, numbering, strict=True):
        body = answer[m.end() :] if (m := _YES_NO.match(answer)) else answer
        body = body.lstrip(" ,.;:!").strip()
        if not body:
            continue
        body = _CITATION.sub(partial(_renumbered, numbers=numbers), body)
        body = re.sub(r"\s+([.,;:!?])", r"\1", body)  # where a citation to nothing was dropped
        sentences.append(body[0].upper() + body[1:])
    return " ".join([f"{verdict}.", *sentences])


def _renumbered(citation: re.Match[str], numbers: Sequence[int]) -> str:
    """Map a claim's citation [n] to its source's number among all the claims' sources."""
    n = int(citation.group(1))
    return f"[{numbers[n - 1]}]" if 0 < n <= len(numbers) else ""
