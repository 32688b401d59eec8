"""An answer's sentences with the [n] citations each carries, and citations rewritten in place.

Sentences end at . ! ? (before a space, a citation or the end: "1.5" and "quillon.example" do
not end one), at 。！？ and at line breaks. A citation belongs to the sentence it ends: "fee is
10 % [1]." and "fee is 10 %.[1]" cite for the fee; a citation standing before a sentence
("[2][3] Heron hub 的保修期是两年。") belongs to that sentence. The sentences' spans cover the
answer end to end, so joining them gives the answer back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from adaptive_rag.core.text import CITATION, language_of, without_citations

_END = re.compile(
    r"[。！？]+[”」』）)\"']*|[.!?]+[”」』)\"']*(?=\s|$|\[\d)|\n",
)
_FOLLOWING_CITES = re.compile(r"(?:[ \t]*" + CITATION.pattern + r")+")
_CITE = r"\[\d+(?:\s*[,，]\s*\d+)*\]"
_LEADING_CITES = re.compile(rf"(?P<space>\s*)(?P<cites>{_CITE}(?:\s*{_CITE})*)\s*")
_SPACED_CITATION = re.compile(r"([ \t]*)" + CITATION.pattern)
_CLOSE = re.compile(r"(?:[.!?。！？]+[”」』）)\"']*|:)?\s*$")
_LIST_MARKER = re.compile(r"[ \t]*\d{1,2}[.)](?=[ \t])")
_ABBREVIATIONS = frozenset("e.g i.e etc vs mr mrs ms dr no approx ca cf fig st".split())
_SPACE = re.compile(r"\s+")
_WIDE = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


@dataclass(frozen=True)
class Sentence:
    """One sentence of an answer: its span, its words without citations, what it cites."""

    start: int
    end: int
    text: str
    cites: tuple[int, ...]


def numbers_of(group: str) -> list[int]:
    """Return the numbers of one citation marker: "[1, 2]" -> [1, 2]."""
    return [int(n) for n in re.findall(r"\d+", group)]


def _ends_abbreviation(answer: str, stop: int) -> bool:
    """Whether a full stop ends an abbreviation ("e.g.") or a list number ("1. ") instead."""
    if answer[stop] != ".":
        return False
    marker = _LIST_MARKER.match(answer, answer.rfind("\n", 0, stop) + 1)
    if marker and marker.end() == stop + 1:
        return True
    word = re.search(r"(?<![\w/°])([A-Za-z.]+)$", answer[:stop])  # not the s of "mm/s"
    if word is None or re.search(r"\d[ \t]?$", answer[: word.start()]):  # a unit: "12 V."
        return False
    if word.group(1).lower() == "no":  # "No. 5", not the answer "No. The sources ..."
        return re.match(r"[ \t]*\d", answer[stop + 1 :]) is not None
    return word.group(1).lower() in _ABBREVIATIONS or len(word.group(1)) == 1


def split(answer: str) -> list[Sentence]:
    """Split an answer into sentences whose spans cover it; blank stretches are not sentences."""
    bounds: list[tuple[int, int]] = []
    start = position = 0
    while position < len(answer):
        stop = _END.search(answer, position)
        if stop is None:
            break
        position = stop.end()
        if _ends_abbreviation(answer, stop.start()):
            continue
        following = _FOLLOWING_CITES.match(answer, position)
        if following and not CITATION.search(answer, start, stop.start()):
            position = following.end()
        while position < len(answer) and answer[position] in " \t\n":
            position += 1
        bounds.append((start, position))
        start = position
    if start < len(answer):
        bounds.append((start, len(answer)))
    sentences = []
    for begin, end in bounds:
        span = answer[begin:end]
        text = _SPACE.sub(" ", _SPACED_CITATION.sub("", span)).strip()
        if text or CITATION.search(span):
            cites = [n for group in CITATION.findall(span) for n in numbers_of(group)]
            sentences.append(Sentence(begin, end, text, tuple(dict.fromkeys(cites))))
    return sentences


def _marker(numbers: Iterable[int]) -> str:
    return "".join(f"[{n}]" for n in numbers)


def recite(span: str, keep: Iterable[int], add: Iterable[int] = ()) -> str:
    """Rewrite one sentence's citations: keep some where they stand, put the rest after the claim.

    A marker whose numbers all stay is left as written, one losing numbers is rewritten (with the
    space before it when it goes); citations standing before the claim, and added ones, go at the
    claim's end before its full stop ("两年[2]。", "10 % [1]."). Words, order and line breaks stay.
    """
    kept = set(keep)
    moved: list[int] = []
    leading = _LEADING_CITES.match(span)
    if leading and without_citations(span[leading.end() :]):
        moved = [n for g in CITATION.findall(leading.group("cites")) for n in numbers_of(g)]
        span = leading.group("space") + span[leading.end() :]

    def rewrite(match: re.Match[str]) -> str:
        numbers = numbers_of(match.group(2))
        staying = [n for n in numbers if n in kept]
        if staying == numbers:
            return match.group()
        return match.group(1) + _marker(staying) if staying else ""

    span = _SPACED_CITATION.sub(rewrite, span)
    standing = {n for group in CITATION.findall(span) for n in numbers_of(group)}
    extra = [n for n in dict.fromkeys([*moved, *add]) if n in kept | set(add)]
    extra = [n for n in extra if n not in standing]
    if not extra:
        return span
    close = _CLOSE.search(span)
    at = close.start() if close else len(span)
    before = span[:at]
    chinese = language_of(span) == "zh" or _WIDE.match(span[at : at + 1])
    gap = "" if chinese or not before or before[-1] in " \t]" else " "
    return before + gap + _marker(extra) + span[at:]


_BULLET = re.compile(r"\n\s*(?:[-*•]|\d+\.)\s+")
_OWN_LINE = re.compile(r"^\s*[|#]")
_BREAK = re.compile(r"\n\s*\n|…")


def source_sentences(source: str) -> list[str]:
    """Return a source's sentences: a paragraph, a list item, a table row or a heading ends one.

    A wrapped line does not: "Codes sent" and "by SMS are not allowed." on two lines are one.
    """
    sentences: list[str] = []
    for block in _BREAK.split(_BULLET.sub("\n\n", source)):
        lines: list[str] = []
        for line in block.splitlines():
            if _OWN_LINE.match(line):
                sentences += _sentences_of(" ".join(lines))
                sentences.append(line.strip())
                lines = []
            else:
                lines.append(line.strip())
        sentences += _sentences_of(" ".join(lines))
    return [s for s in sentences if s]


def _sentences_of(text: str) -> list[str]:
    return [s.text for s in split(text.strip()) if s.text]
