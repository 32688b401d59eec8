"""Whether a "no" to a yes/no question is what its cited source states, sentence by sentence.

"Can I use SMS codes for MFA?" answered "No, you cannot use SMS codes for MFA [1]." over a page
that says "Codes sent by SMS are not allowed." is a no its source states: one sentence of the
cited source holds the question's focus (core.grounding.focus), at least half of its terms, and
negates. The answerability judge reads a no as the sources not answering (a small model's odds
that they state the answer are low for a rule that forbids), so such an answer is not put to it.

A no whose source holds the focus only spread over the page, or in a sentence that does not
negate, is not stated so, and is judged as any answer is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from adaptive_rag.core.grounding.focus import Focus, focus_of
from adaptive_rag.core.grounding.sentences import split
from adaptive_rag.core.text import CITATION

_OPENING_NO = re.compile(
    r"^\s*(?:no\b|不[，,。！!]|否|不可以|不能|不行|不会|不需要|不用|没有)", re.IGNORECASE
)
"""An answer's opening no, in either language."""
_OPENING_YES = re.compile(r"^\s*(?:yes\b|是的|是，|可以|能|会|需要)", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[,;:.!?，。；：！？]")
_NEGATION = re.compile(
    r"\b(?:not|never|no|none|neither|nor|cannot|without)\b|n't\b"
    r"|不可|不能|不得|不允许|不准|禁止|严禁|不予|不支持|不提供|不包括|不含|不发|不接受|不会|不需|不用"
    r"|无法|没有|并未|从未|未曾|不曾|并不|不是|并非",
    re.IGNORECASE,
)
"""Words that negate a clause, in either language (不 alone is part of too many other words)."""
_BULLET = re.compile(r"\n\s*(?:[-*•]|\d+\.)\s+")
_LINE_BREAK = re.compile(r"\s*\n\s*")
_BREAK = re.compile(r"\n\s*\n|…")


def answers_no(answer: str) -> bool:
    """Whether an answer opens with a no, or its first clause negates with no yes before it."""
    plain = CITATION.sub("", answer).strip()
    if _OPENING_NO.match(plain):
        return True
    if _OPENING_YES.match(plain):
        return False
    return bool(_NEGATION.search(_CLAUSE_END.split(plain, maxsplit=1)[0]))


def source_sentences(source: str) -> list[str]:
    """Return a source's sentences: a list item or a paragraph ends one, a wrapped line does not."""
    sentences: list[str] = []
    for block in _BREAK.split(_BULLET.sub("\n\n", source)):
        text = _LINE_BREAK.sub(" ", block).strip()
        sentences += [s.text for s in split(text) if s.text]
    return sentences


def stated_no(question: str, answer: str, cited: Sequence[str], focus: Focus | None) -> str:
    """Return the cited sentence that states an answer's no ('' when none does).

    Only for a yes/no question answered no, whose focus the cited sources hold and could be
    checked for whole (none of its terms in another script than the sources); a wide focus (a
    question of many terms) is stated by a sentence holding half of it too.
    """
    if focus is None or not focus.terms or focus.unchecked or not focus.held:
        return ""
    if not answers_no(answer):
        return ""
    wanted = len(focus.terms)
    for source in cited:
        for sentence in source_sentences(source):
            if not _NEGATION.search(sentence):
                continue
            alone = focus_of(question, [sentence])
            if 2 * (len(alone.terms) - len(alone.missing)) >= wanted:
                return sentence
    return ""
