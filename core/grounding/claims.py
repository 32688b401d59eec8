"""A sentence's claim and whether sources hold it, by rules (core.grounding applies it).

A claim is a sentence's names, numbers, quoted spans and content words, less what the question
already holds; core.grounding's docstring says when sources support one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from adaptive_rag.core.grounding.sentences import Sentence
from adaptive_rag.core.text import (
    CJK,
    Language,
    Terms,
    found_in,
    key_tokens,
    language_of,
    strong,
    terms_of,
)

WORD_SHARE = 0.4
"""How much of a sentence's content words (those the question lacks) its sources must hold.

Chosen as the middle of the range over which every example in tests/core/test_grounding.py
holds; to be refitted on labelled answers.
"""

Verdict = Literal["yes", "no", "unknown"]


@lru_cache(maxsize=1024)
def _language(text: str) -> Language:
    return language_of(text)


@dataclass(frozen=True)
class Claim:
    """A sentence's terms, split into what must be found and what the question excuses."""

    needed: Terms
    excused: Terms
    language: Language
    asked: frozenset[str] = frozenset()
    """Content words the question holds: they show what is talked about, not that it is so."""


def checkable(claim: Claim, source: str) -> Terms:
    """Return the part of a claim's terms a source can be checked for, whatever its language.

    Words and Chinese names are checked against sources in their own script. A name in Latin
    letters is checked against an English source, against any source from a Chinese sentence
    (Chinese keeps product names in Latin), and otherwise when it looks like a model name or the
    source holds part of it: "China" is not checked against a Chinese source, "Heron Pro" is.
    """
    chinese: bool = _language(source) == "zh"
    terms = claim.needed | claim.excused

    def name_checkable(name: str) -> bool:
        if CJK.search(name):
            return chinese
        if not chinese or claim.language == "zh":
            return True
        keys = key_tokens(name)
        return any(strong(k) for k in keys) or bool(found_in(Terms(names=frozenset(keys)), source))

    return Terms(
        names=frozenset(n for n in terms.names if name_checkable(n)),
        numbers=terms.numbers,
        words=frozenset(w for w in terms.words if bool(CJK.search(w)) == chinese),
        quotes=frozenset(q for q in terms.quotes if name_checkable(q)),
    )


def needed_terms(claim: Claim, can: Terms) -> Terms:
    """Return what sources must hold of a claim: the needed terms they can be checked for."""
    return Terms(
        claim.needed.names & can.names,
        claim.needed.numbers,
        claim.needed.words & can.words,
        claim.needed.quotes & can.quotes,
    )


def judge(claim: Claim, found: Sequence[Terms], checkable: Sequence[Terms]) -> Verdict:
    """Judge a claim against sources taken together, from what each holds and can be checked for."""
    held = union(found)
    can = union(checkable)
    needed = needed_terms(claim, can)
    if needed.facts() - held.facts():
        return "no"
    if needed.words:
        telling = needed.words - claim.asked
        if not telling:  # the question's own words: it restates the question, with its facts
            return "yes" if needed.facts() else "unknown"
        enough = len(telling & held.words) >= WORD_SHARE * len(telling)
        if not enough and len(telling) == 1:  # one word of its own is too little to refute by
            return "yes" if needed.facts() else "unknown"  # its facts were all found, if any
        return "yes" if enough else "no"
    anchors = can.facts()
    if not anchors:
        return "unknown"
    if not anchors & held.facts():
        return "no"
    # no word could be read (another script, or the sentence has none of its own): the
    # question's names, found, say only what it is about; what it says of them is known from
    # its new facts alone ("Yes, the Kestrel K2 does." is unchecked)
    return "yes" if needed.facts() else "unknown"


def claim_of(sentence: Sentence, question: str) -> Claim:
    """Return a sentence's claim: its terms, less the names and numbers the question holds."""
    terms = terms_of(sentence.text)
    terms = Terms(terms.names - terms.quotes, terms.numbers, terms.words, terms.quotes)
    excused = found_in(terms, question) if question else Terms()
    return Claim(
        needed=terms - Terms(excused.names, excused.numbers, quotes=excused.quotes),
        excused=Terms(excused.names, excused.numbers, quotes=excused.quotes),
        language=_language(sentence.text),
        asked=excused.words,
    )


def union(parts: Iterable[Terms]) -> Terms:
    """Return every term of several parts together."""
    total = Terms()
    for part in parts:
        total = total | part
    return total
