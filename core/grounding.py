"""Check an answer against the sources it cites, by rules, and repair its citations.

A sentence is supported by a source when every name, number and quoted span of the sentence
that the question does not already hold is in the source, and at least WORD_SHARE of its content
words are (core.terms says how each kind is found). Names and numbers from the question are free
to repeat; so are its content words, which are left out of the share (they show what the sentence
is about, not that what it says is so); a sentence with no others restates the question, and is
supported by its new facts if it has any, else unchecked. A single word of its
own that no source holds does not refute a sentence by itself: it is supported when its facts
are found, unchecked when it has none ("it holds 1.7 litres" against "a 1.7 litre capacity").
Quoted spans must stand in the source verbatim. Several cited sources may support a sentence
together, each giving part of it.

Across languages only what can be compared is compared: numbers always, names and quotes in Latin
letters always, Chinese names and Chinese words against Chinese sources only, English words
against English sources only. A sentence with nothing comparable in any source is "unchecked"
(neither supported nor unsupported). One with no terms at all ("Yes." / "是的。"), or a line that
introduces what follows it ("The LED codes mean:"), has no content to check.

Repairs make every citation point at a listed source that supports its sentence: a citation
number with no source, or to a source that does not support the sentence, is dropped, and the
best supporting source is cited instead if there is one; an uncited sentence that a source
supports gets that source; citations standing before a sentence move after its claim. Nothing
else in the text changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from adaptive_rag.core.language import Language, language_of
from adaptive_rag.core.sentences import Sentence, recite, split
from adaptive_rag.core.terms import Terms, found_in, key_tokens, strong, terms_of
from adaptive_rag.core.terms_zh import CJK

WORD_SHARE = 0.4
"""How much of a sentence's content words (those the question lacks) its sources must hold.

Chosen as the middle of the range over which every example in tests/core/test_grounding.py
holds; to be refitted on labelled answers.
"""

Status = Literal["supported", "unsupported", "unchecked", "no_content"]
Verdict = Literal["yes", "no", "unknown"]


@dataclass(frozen=True)
class SentenceCheck:
    """One sentence's verdict: what it cited, what supports it, what is missing."""

    text: str
    """The sentence without its citation markers."""
    cited: tuple[int, ...]
    """The source numbers it cited as written."""
    cites: tuple[int, ...]
    """The source numbers it cites after repair."""
    supporting: tuple[int, ...]
    """Every listed source that supports it on its own (or the cited ones that do together)."""
    missing: Terms
    """Its terms found in none of the sources consulted (the cited ones, else all)."""
    status: Status
    message: str = ""
    """For an unsupported sentence, what is wrong, for a person to read."""


@dataclass(frozen=True)
class Grounding:
    """An answer checked sentence by sentence, and the answer with its citations repaired."""

    sentences: tuple[SentenceCheck, ...]
    answer: str
    """The repaired answer."""
    changed: bool = field(default=False)
    """Whether repair changed the answer's text."""

    @property
    def unsupported(self) -> tuple[SentenceCheck, ...]:
        """Return the sentences no listed source supports."""
        return tuple(s for s in self.sentences if s.status == "unsupported")

    @property
    def grounded(self) -> bool:
        """Whether no sentence with content is unsupported."""
        return not self.unsupported

    @property
    def score(self) -> float:
        """Return the share of sentences with content that are supported (1.0 with none)."""
        content = [s for s in self.sentences if s.status != "no_content"]
        if not content:
            return 1.0
        return sum(s.status == "supported" for s in content) / len(content)

    @property
    def feedback(self) -> str:
        """Return the unsupported sentences' messages on one line."""
        return "; ".join(s.message for s in self.unsupported)


@lru_cache(maxsize=1024)
def _language(text: str) -> Language:
    return language_of(text)


@dataclass(frozen=True)
class _Claim:
    """A sentence's terms, split into what must be found and what the question excuses."""

    needed: Terms
    excused: Terms
    language: Language
    asked: frozenset[str] = frozenset()
    """Content words the question holds: they show what is talked about, not that it is so."""


def _checkable(claim: _Claim, source: str) -> Terms:
    """Return the part of a claim's terms a source can be checked for, whatever its language.

    Words and Chinese names are checked against sources in their own script. A name in Latin
    letters is checked against an English source, against any source from a Chinese sentence
    (Chinese keeps product names in Latin), and otherwise when it looks like a model name or the
    source holds part of it: "China" is not checked against a Chinese source, "Heron Pro" is.
    """
    chinese = _language(source) == "zh"
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


def _needed(claim: _Claim, can: Terms) -> Terms:
    """Return what sources must hold of a claim: the needed terms they can be checked for."""
    return Terms(
        claim.needed.names & can.names,
        claim.needed.numbers,
        claim.needed.words & can.words,
        claim.needed.quotes & can.quotes,
    )


def _judge(claim: _Claim, found: Sequence[Terms], checkable: Sequence[Terms]) -> Verdict:
    """Judge a claim against sources taken together, from what each holds and can be checked for."""
    held = _union(found)
    can = _union(checkable)
    needed = _needed(claim, can)
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
    return "yes" if anchors & held.facts() else "no"


def _claim(sentence: Sentence, question: str) -> _Claim:
    terms = terms_of(sentence.text)
    terms = Terms(terms.names - terms.quotes, terms.numbers, terms.words, terms.quotes)
    excused = found_in(terms, question) if question else Terms()
    return _Claim(
        needed=terms - Terms(excused.names, excused.numbers, quotes=excused.quotes),
        excused=Terms(excused.names, excused.numbers, quotes=excused.quotes),
        language=_language(sentence.text),
        asked=excused.words,
    )


def _cites(numbers: Sequence[int]) -> str:
    return "".join(f"[{n}]" for n in numbers)


def _check(sentence: Sentence, sources: Sequence[str], question: str) -> SentenceCheck:
    claim = _claim(sentence, question)
    listed = range(1, len(sources) + 1)
    valid = [n for n in sentence.cites if n in listed]
    introduces = sentence.text.endswith((":", "："))
    if introduces or (not len(claim.needed) and not len(claim.excused)):
        return SentenceCheck(sentence.text, sentence.cites, tuple(valid), (), Terms(), "no_content")
    found = {n: found_in(claim.needed | claim.excused, sources[n - 1]) for n in listed}
    checkable = {n: _checkable(claim, sources[n - 1]) for n in listed}

    def verdict(numbers: Sequence[int]) -> Verdict:
        return _judge(claim, [found[n] for n in numbers], [checkable[n] for n in numbers])

    keep, supporting, status = _choose(valid, listed, verdict, found)
    consulted = valid or list(listed)
    missing = _needed(claim, _union(checkable[n] for n in consulted))
    missing -= _union(found[n] for n in consulted)
    message = _message(sentence, valid) if status == "unsupported" else ""
    if message and len(missing):
        message += f" (not found: {missing.describe()})"
    return SentenceCheck(
        sentence.text, sentence.cites, tuple(keep), tuple(supporting), missing, status, message
    )


def _choose(
    valid: Sequence[int],
    listed: Sequence[int],
    verdict: Callable[[Sequence[int]], Verdict],
    found: dict[int, Terms],
) -> tuple[list[int], list[int], Status]:
    """Return the citations to keep, the sources that support the sentence, and its status.

    Cited sources that support it alone are kept; else the cited ones that do together (as few
    as do); else the listed source that holds most of it; else the cited ones that cannot be
    checked, and the sentence is unchecked or unsupported.
    """
    alone = {n: verdict([n]) for n in listed}
    supporting = [n for n in listed if alone[n] == "yes"]
    keep = [n for n in valid if alone[n] == "yes"]
    if keep:
        return keep, supporting, "supported"
    if valid and verdict(valid) == "yes":
        keep = list(valid)
        for n in reversed(valid):
            if len(keep) > 1 and verdict([m for m in keep if m != n]) == "yes":
                keep.remove(n)
        return keep, keep, "supported"
    if supporting:
        best = max(supporting, key=lambda n: (len(found[n].words), len(found[n].facts()), -n))
        return [best], supporting, "supported"
    keep = [n for n in valid if alone[n] == "unknown"]
    if keep or (not valid and "unknown" in alone.values()):
        return keep, [], "unchecked"
    return [], [], "unsupported"


def _union(parts: Iterable[Terms]) -> Terms:
    total = Terms()
    for part in parts:
        total = total | part
    return total


def _message(sentence: Sentence, valid: Sequence[int]) -> str:
    quoted = f"'{sentence.text.rstrip('.。!！?？')}'"
    if valid:
        return f"no support in {_cites(valid)} for {quoted}"
    unlisted = [n for n in sentence.cites if n not in valid]
    if unlisted:
        which = "which is not a listed source" if len(unlisted) == 1 else "which are not listed"
        return f"{quoted} cites {_cites(unlisted)}, {which}"
    return f"{quoted} cites no source"


def check(answer: str, sources: Sequence[str], question: str = "") -> Grounding:
    """Check each sentence of an answer against its sources (numbered from 1) and repair it.

    The question's names and numbers are free to repeat in the answer; pass it when there is one.
    """
    parts: list[str] = []
    checks: list[SentenceCheck] = []
    position = 0
    for sentence in split(answer):
        parts.append(answer[position : sentence.start])
        span = answer[sentence.start : sentence.end]
        result = _check(sentence, sources, question)
        checks.append(result)
        if result.cites == sentence.cites and not span.lstrip().startswith("["):
            parts.append(span)
        else:
            parts.append(recite(span, result.cites, result.cites))
        position = sentence.end
    parts.append(answer[position:])
    repaired = "".join(parts)
    return Grounding(tuple(checks), repaired, changed=repaired != answer)
