"""An answer to a question of how much, how many or how long that states no amount.

"K2 打印机工作时的噪音有多大？" answered "噪音较大[1]" restates the question as a claim and gives
no figure: when the sources hold the amount, the answer missed it; when they do not, the answer
made up a quality in its place. Either way it does not answer what was asked, so the check fails
it and the Self-RAG loop writes it again (an owned question that still fails is declined).
"""

from __future__ import annotations

import re

from adaptive_rag.core.question import asks_amount
from adaptive_rag.core.text import CN_NUMERAL, numbers_in, without_citations

_IN_WORDS = re.compile(
    r"\b(free|no\s+(\w+\s+)?(charge|cost|fee|limit)s?|not\s+charged|unlimited|none|never"
    r"|immediately|instantly|(a|an|one|half\s+an?|per)\s+(second|minute|hour|day|week|fortnight"
    r"|month|quarter|year|decade|dozen|hundred|thousand))\b"
    rf"|免费|不收费|无需付费|不限|无限|没有限制|立即|立刻|马上|[{CN_NUMERAL}]+[点时]|半个?(天|年|月|小时|周)",
    re.IGNORECASE,
)
"""An amount in words, no number read: free, no fee, unlimited, at once, a week, 九点, 半年."""

UNMEASURED = "the question asks for an amount, and the answer states none"
"""Feedback for an answer that gives no amount to a question that asks for one."""


_CODE = re.compile(r"[A-Za-z0-9][A-Za-z0-9.\-]*\d[A-Za-z0-9.\-]*")
"""A token with a digit: a rating or a code ("IP65", "5G") that the number reader leaves out."""


def states_amount(answer: str, question: str = "") -> bool:
    """Whether an answer states an amount: a number, a code with a digit, or one in words.

    A number in digits or words; a rating or code with a digit that the question does not hold
    ("IP65"; not the "K2" asked about); or an amount in words ("free", "a week", "不限").
    """
    text = without_citations(answer)
    if numbers_in(text, articles=True) or _IN_WORDS.search(text):
        return True
    asked = question.lower()
    return any(code.lower() not in asked for code in _CODE.findall(text))


def unmeasured(question: str, answer: str) -> bool:
    """Whether a question asks for an amount and its answer states none."""
    return asks_amount(question) and bool(answer.strip()) and not states_amount(answer, question)
