"""The answer's opening "Yes" or "No", made to agree with its question and with its own clause.

A small model opens an answer with "Yes," by habit: where the question asks no yes or no, the
opening is dropped; where the question asks one without a negation and the main clause after the
opening "Yes" negates, the opening becomes "No".
"""

from __future__ import annotations

import re

from adaptive_rag.core.question import asks_yes_no

_STRAY_YES_NO = re.compile(r"^\s*(?:(?:yes|no)\s*[,.!:;，。]|是的\s*[，,。])\s*", re.IGNORECASE)


def without_stray_yes_no(answer: str, question: str) -> str:
    """Drop a 'Yes,'/'是的，' opening an answer to a question asking none (a small model's habit).

    Dropped after writing rather than asked for in the prompt (why: docs/decisions.md).
    """
    found = _STRAY_YES_NO.match(answer)
    rest = answer[found.end() :] if found else ""
    if not rest.strip() or asks_yes_no(question):
        return answer
    return rest[0].upper() + rest[1:]


_OPENING_YES = re.compile(r"^(\s*)(yes|是的)(?=\s*[,.!:;，。])", re.IGNORECASE)
_CLAUSE_END = re.compile(
    r"[,;:.!?，。；：！？]|\b(?:that|which|who|whom|whose|while|whereas|but|although|though"
    r"|because|since|if|when|where|unlike|compared)\b",
    re.IGNORECASE,
)
"""Where a sentence's main clause ends: punctuation or a word that opens another clause."""
_NEGATION = re.compile(
    r"\b(?!not only\b|not just\b|no doubt\b|no matter\b)(?:not|never|no|none|neither|nor)\b"
    r"|n't\b|没有|并未|从未|未曾|不曾|并不|不是|并非",
    re.IGNORECASE,
)
"""Words that negate a clause ("not only" and "no doubt" do not)."""


def _negated(text: str) -> bool:
    return bool(_NEGATION.search(text))


def consistent_yes_no(answer: str, question: str) -> str:
    """Turn "Yes, there was no change" into "No, there was no change" (its own clause decides).

    A small model opens a yes/no answer with "Yes" by habit, then states the opposite: when the
    question asks yes or no without a negation, and the main clause after the opening "Yes"
    (or "是的") negates, the opening becomes "No" ("不是"). The other way round is left alone:
    "No, the article describes X instead" is a consistent no.
    """
    found = _OPENING_YES.match(answer)
    if not found or not asks_yes_no(question) or _negated(question):
        return answer
    rest = answer[found.end() :].lstrip(" ,.!:;，。")
    clause = _CLAUSE_END.split(rest, maxsplit=1)[0]
    if not _negated(clause):
        return answer
    word = found.group(2)
    no = (
        "不是"
        if word == "是的"
        else ("NO" if word.isupper() else "No" if word[0].isupper() else "no")
    )
    return found.group(1) + no + answer[found.end() :]
