"""Check an answer against the sources it cites, by rules, and repair its citations.

A sentence is supported by a source when every name, number and quoted span of the sentence
that the question does not already hold is in the source, and at least WORD_SHARE of its content
words are (core.text.terms says how each kind is found). Names and numbers from the question are
free to repeat; so are its content words, which are left out of the share (they show what the
sentence is about, not that what it says is so); a sentence with no others restates the question,
and is supported by its new facts if it has any, else unchecked. A single word of its
own that no source holds does not refute a sentence by itself: it is supported when its facts
are found, unchecked when it has none ("it holds 1.7 litres" against "a 1.7 litre capacity").
Quoted spans must stand in the source verbatim. Several sources may support a sentence together,
each giving part of it: the cited ones first, else any listed ones, which it then cites.

Across languages only what can be compared is compared: numbers always, names and quotes in Latin
letters always, Chinese names and Chinese words against Chinese sources only, English words
against English sources only. A sentence with nothing comparable in any source is "unchecked"
(neither supported nor unsupported), and so is one whose only comparable terms are the
question's own names ("是的，Falcon F4 支持无线充电。" over an English page on the Falcon F4, or
"Yes, the Falcon F4 does." in any language).
One with no terms at all ("Yes." / "是的。"), or a line that introduces what follows it ("The LED
codes mean:"), has no content to check.

Repairs make every citation point at a listed source that supports its sentence: a citation
number with no source, or to a source that does not support the sentence, is dropped, and the
best supporting source is cited instead if there is one; an uncited sentence that a source
supports gets that source; citations standing before a sentence move after its claim; a sentence
that only points at its sources ("This can be found in [1].") is dropped, and the sentence before
it takes its citations if it has none (core.grounding.pointers). Nothing else in the text changes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from adaptive_rag.core.grounding.claims import (
    Verdict,
    checkable,
    claim_of,
    judge,
    needed_terms,
    union,
)
from adaptive_rag.core.grounding.pointers import points_only
from adaptive_rag.core.grounding.sentences import Sentence, recite, split
from adaptive_rag.core.text import Terms, found_in

DROPPED = "only points at its sources: dropped"
"""The message of a sentence the repair dropped (core.grounding.pointers)."""

NO_SUPPORT, NOT_FOUND, NO_CITE = "no support in", "(not found:", "cites no source"
UNLISTED = {1: "which is not a listed source", 2: "which are not listed"}
"""The fixed phrases of the check's feedback (`_message`): no answer from the sources holds them."""

Status = Literal["supported", "unsupported", "unchecked", "no_content"]


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


def _cites(numbers: Sequence[int]) -> str:
    return "".join(f"[{n}]" for n in numbers)


def _check(sentence: Sentence, sources: Sequence[str], question: str) -> SentenceCheck:
    claim = claim_of(sentence, question)
    listed = range(1, len(sources) + 1)
    valid = [n for n in sentence.cites if n in listed]
    introduces = sentence.text.endswith((":", "："))
    if introduces or (not len(claim.needed) and not len(claim.excused)):
        return SentenceCheck(sentence.text, sentence.cites, tuple(valid), (), Terms(), "no_content")
    found = {n: found_in(claim.needed | claim.excused, sources[n - 1]) for n in listed}
    can_check = {n: checkable(claim, sources[n - 1]) for n in listed}

    def verdict(numbers: Sequence[int]) -> Verdict:
        return judge(claim, [found[n] for n in numbers], [can_check[n] for n in numbers])

    keep, supporting, status = _choose(valid, listed, verdict, found)
    consulted = valid or list(listed)
    missing = needed_terms(claim, union(can_check[n] for n in consulted))
    missing -= union(found[n] for n in consulted)
    message = _message(sentence, valid) if status == "unsupported" else ""
    if message and len(missing):
        message += f" {NOT_FOUND} {missing.describe()})"
    return SentenceCheck(
        sentence.text, sentence.cites, tuple(keep), tuple(supporting), missing, status, message
    )


def _fewest(
    together: Sequence[int], order: Iterable[int], verdict: Callable[[Sequence[int]], Verdict]
) -> list[int]:
    """Return the sources that support a sentence together, less each (in `order`) not needed."""
    keep = list(together)
    for n in order:
        if len(keep) > 1 and verdict([m for m in keep if m != n]) == "yes":
            keep.remove(n)
    return keep


def _choose(
    valid: Sequence[int],
    listed: Sequence[int],
    verdict: Callable[[Sequence[int]], Verdict],
    found: dict[int, Terms],
) -> tuple[list[int], list[int], Status]:
    """Return the citations to keep, the sources that support the sentence, and its status.

    Cited sources that support it alone are kept; else the cited ones that do together (as few
    as do); else the listed source that holds most of it; else the listed sources that do
    together (as few as do); else the cited ones that cannot be checked, and the sentence is
    unchecked or unsupported.
    """
    alone = {n: verdict([n]) for n in listed}
    supporting = [n for n in listed if alone[n] == "yes"]
    keep = [n for n in valid if alone[n] == "yes"]
    if keep:
        return keep, supporting, "supported"
    if valid and verdict(valid) == "yes":
        keep = _fewest(valid, reversed(valid), verdict)
        return keep, keep, "supported"
    if supporting:
        best = max(supporting, key=lambda n: (len(found[n].words), len(found[n].facts()), -n))
        return [best], supporting, "supported"
    if len(listed) > 1 and verdict(listed) == "yes":
        # each part from another source ("A opened in 2009 [1], B in 2012 [3]"): cite those that
        # do together, as few as do, the cited ones kept where they can be
        def holds(n: int) -> tuple[bool, int, int]:
            return n in valid, len(found[n].facts()), len(found[n].words)

        keep = _fewest(listed, sorted(listed, key=holds), verdict)
        return keep, keep, "supported"
    keep = [n for n in valid if alone[n] == "unknown"]
    if keep or (not valid and "unknown" in alone.values()):
        return keep, [], "unchecked"
    return [], [], "unsupported"


def _message(sentence: Sentence, valid: Sequence[int]) -> str:
    quoted = f"'{sentence.text.rstrip('.。!！?？')}'"
    if valid:
        return f"{NO_SUPPORT} {_cites(valid)} for {quoted}"
    unlisted = [n for n in sentence.cites if n not in valid]
    if unlisted:
        return f"{quoted} cites {_cites(unlisted)}, {UNLISTED[min(len(unlisted), 2)]}"
    return f"{quoted} {NO_CITE}"


def supported_only(answer: str, sources: Sequence[str], question: str = "") -> str:
    """Return the answer without the sentences no listed source supports ('' when none is left).

    What the sources do not say is not said about a knowledge base's own things: an answer whose
    first claim stands keeps it, and loses what follows it unsupported ("This can be found in
    the section 'Hotels'.", a detail no source gives). The text between sentences is kept.
    """
    parts: list[str] = []
    position = 0
    for sentence in split(answer):
        if _check(sentence, sources, question).status == "unsupported":
            parts.append(answer[position : sentence.start])
            position = sentence.end
    parts.append(answer[position:])
    return re.sub(r"[ \t]{2,}", " ", "".join(parts)).strip()


def without_feedback(answer: str) -> str:
    """Drop the lines of a rewritten answer that repeat the check's feedback instead of answering.

    A rewrite is told why its answer failed; a small model sometimes copies that feedback into
    the new answer ("No support in for '…' (not found: …)").
    """
    lines = answer.split("\n")
    phrases = (NO_SUPPORT, NOT_FOUND, NO_CITE, *UNLISTED.values())
    kept = [line for line in lines if not any(p in line.lower() for p in phrases)]
    return "\n".join(kept).strip() if len(kept) < len(lines) else answer


def _pointer(
    sentence: Sentence, checks: list[SentenceCheck], parts: list[str], listed: int
) -> SentenceCheck:
    """Drop a sentence that only points at sources; the one before takes its citations if bare.

    That sentence is the last part written; it takes them only when it cites nothing and no
    source refutes it, so no citation comes to stand on a sentence its source contradicts.
    """
    valid = tuple(n for n in sentence.cites if 1 <= n <= listed)
    before = checks[-1]
    if valid and not before.cites and before.status in ("unchecked", "no_content"):
        parts[-1] = recite(parts[-1], valid, valid)
        checks[-1] = replace(before, cites=valid)
    return SentenceCheck(sentence.text, sentence.cites, (), (), Terms(), "no_content", DROPPED)


def check(answer: str, sources: Sequence[str], question: str = "") -> Grounding:
    """Check each sentence of an answer against its sources (numbered from 1) and repair it.

    The question's names and numbers are free to repeat in the answer; pass it when there is one.
    """
    parts: list[str] = []
    checks: list[SentenceCheck] = []
    position = 0
    for sentence in split(answer):
        gap = answer[position : sentence.start]
        span = answer[sentence.start : sentence.end]
        position = sentence.end
        if checks and points_only(sentence.text):  # not a claim, cited or not: dropped
            checks.append(_pointer(sentence, checks, parts, len(sources)))
            if gap.strip():
                parts.append(gap)
            else:  # the sentence before ends as the dropped one did (a line break, or nothing)
                parts[-1] = parts[-1].rstrip() + span[len(span.rstrip()) :]
            continue
        parts.append(gap)
        result = _check(sentence, sources, question)
        checks.append(result)
        if result.cites == sentence.cites and not span.lstrip().startswith("["):
            parts.append(span)
        else:
            parts.append(recite(span, result.cites, result.cites))
    parts.append(answer[position:])
    repaired = "".join(parts)
    return Grounding(tuple(checks), repaired, changed=repaired != answer)
