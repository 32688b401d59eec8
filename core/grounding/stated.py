"""Whether a "no" to a yes/no question is what its cited source states, sentence by sentence.

"Can I use SMS codes for MFA?" answered "No, you cannot use SMS codes for MFA [1]." over a page
that says "Codes sent by SMS are not allowed." is a no its source states: the answer cites the
page, and one sentence of it negates and holds two thirds of the question's focus
(core.grounding.focus), at least two terms; half of a wide one (more than six terms). The
answerability judge reads a no as the sources not answering (a small model's odds that they state
the answer are low for a rule that forbids), so such an answer is not put to it.

Not stated so: an answer that cites nothing, or says anywhere that its sources do not hold
something ("No, the sources do not say … [1]"); a focus only spread over the page, or held by a
sentence that does not negate. Whether the negation applies to what is asked is not read: a no
to "another EU country" over "outside the EU is not allowed" passes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from adaptive_rag.core.grounding.focus import Focus, held_in
from adaptive_rag.core.grounding.sentences import source_sentences
from adaptive_rag.core.grounding.unsaid import admits_anywhere
from adaptive_rag.core.text import CITATION

_OPENING_NO = re.compile(
    r"^\s*(?:no\b|不[，,。！!]|否|不可以|不能|不行|不会|不需要|不用|没有)", re.IGNORECASE
)
"""An answer's opening no, in either language."""
_OPENING_YES = re.compile(r"^\s*(?:yes\b|是的|是，|可以|能|会|需要)", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[,;:.!?，。；：！？]")
_NEGATION = re.compile(
    r"\b(?!not only\b|not just\b|no doubt\b|no matter\b|no later\b|no more than\b|no less\b)"
    r"(?:not|never|no|none|neither|nor|cannot)\b(?![-.]\s?\w)|n[’']t\b"
    r"|(?<!能)不能|(?<!可)不可(?!抗|或缺|少)|不得(?!不)|不允许|不准|禁止|严禁|不予|不支持|不提供|不接受"
    r"|(?<!会)不会|(?<!需)不需|(?<!用)不用|不发|无法|没有|并未|从未|未曾|不曾|并不|(?<!是)不是|并非",
    re.IGNORECASE,
)
"""Words that negate a clause, in either language: not "not only", "no later than", an A-不-A
question (能不能, 是不是), 不可抗力 or 不得不; 不 alone is part of too many other words."""
WIDE_SHARE = 0.5
HELD_SHARE = 2 / 3
"""How much of the focus one sentence must hold: of a wide focus, of any other (two terms at
least)."""


def answers_no(answer: str) -> bool:
    """Whether an answer opens with a no, or its first clause negates with no yes before it."""
    plain = CITATION.sub("", answer).strip()
    if _OPENING_NO.match(plain):
        return True
    if _OPENING_YES.match(plain):
        return False
    return bool(_NEGATION.search(_CLAUSE_END.split(plain, maxsplit=1)[0]))


def negates(sentence: str) -> bool:
    """Whether a sentence holds a word that negates (core.grounding.stated's list)."""
    return bool(_NEGATION.search(sentence))


def stated_no(question: str, answer: str, cited: Sequence[str], focus: Focus | None) -> str:
    """Return the sentence of a source the answer cites that states its no ('' when none does).

    `cited` are the sources the answer cites (none: not stated); `focus` the question's focus
    read against them, which they must hold and could be checked for whole (no term in another
    script than the sources).
    """
    if focus is None or not cited or not focus.terms or focus.unchecked or not focus.held:
        return ""
    if not answers_no(answer) or admits_anywhere(answer):
        return ""
    return _holding(question, focus, [s for c in cited for s in source_sentences(c) if negates(s)])


def stated_yes(question: str, answer: str, cited: Sequence[str], focus: Focus | None) -> bool:
    """Whether a yes (any answer but a no) has one cited sentence that holds the question's focus.

    Read where the focus rule passed a yes ("Are unused vacation days paid out when I leave?" over a
    page that names unused days, payment and leaving in three sentences on other things): a yes
    is stated in one place, as a no is, by one sentence holding two thirds of the focus, two
    terms at least. True when it is, when the answer is a no, or when the focus is not known whole,
    is one term (held, the focus rule found) or is wide (several things asked, each stated apart).
    """
    if focus is None or not focus.known or focus.wide or len(focus.terms) < 2 or answers_no(answer):
        return True
    return bool(cited) and bool(
        _holding(question, focus, [s for c in cited for s in source_sentences(c)])
    )


def _holding(question: str, focus: Focus, sentences: list[str]) -> str:
    """Return the first sentence holding the share of the focus a statement needs ('' if none)."""
    share = WIDE_SHARE if focus.wide else HELD_SHARE
    needed = max(2, math.ceil(share * len(focus.terms) - 1e-9))
    held = held_in(question, focus, sentences)
    return next((s for s, count in zip(sentences, held, strict=True) if count >= needed), "")
