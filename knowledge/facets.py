"""Facets: what documents say of themselves (publisher, author, date), and questions that name it.

A document loaded with fields of its own (a JSONL record's `publisher` or `published_at`)
carries them on each of its chunks. Two things follow, neither asking a model:

- its descriptive values are part of the text that search reads (`header`), as LlamaIndex puts
  a node's metadata in the text it embeds, so "the Wired article of 2023-11-25" matches;
- a question that names a value of such a field ("according to The Verge and TechCrunch")
  also searches within each value it names (self-querying by rule): the knowledge base keeps,
  per revision, which chunks hold each value (`FacetIndex`), and the retriever fuses one search
  per named value with the others, so each named source has its own best chunk in the ranking.

Values are matched as written (case and whole words), dates in the forms people write them.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from adaptive_rag.knowledge.loading import OWN_KEYS

RESERVED = OWN_KEYS | {"title", "page", "url"}
"""Keys the knowledge base writes or reads itself: never a facet, never in the header."""
MAX_VALUE_CHARS = 80
"""A longer value is a sentence, not a name: neither a facet nor in the header."""
MIN_VALUE_CHARS = 2
MAX_NAMED = 4
"""At most this many named values get a search of their own (the longest first)."""
MAX_SHARE = 0.5
"""A value held by more than this share of the chunks narrows nothing: never searched within."""
EXACT_WITHIN = 64
"""A named value held by at most this many chunks is searched by meaning among them all."""
NEAREST_WITHIN = 200
"""The nearest chunks a larger named value's own ranking by meaning is read from."""
_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$")
_MONTHS = (
    "january february march april may june july august september october november december"
).split()
_MONTH = r"(?P<month>" + "|".join(_MONTHS) + "|sept|" + "|".join(m[:3] for m in _MONTHS) + r")\b"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_WRITTEN_DATES = (
    re.compile(r"(?<!\d)(?P<year>\d{4})[-/.](?P<mnum>\d{1,2})[-/.](?P<day>\d{1,2})(?!\d)"),
    re.compile(_MONTH + r"\.? " + _DAY + r",? (?P<year>\d{4})", re.IGNORECASE),
    re.compile(_DAY + " " + _MONTH + r"\.?,? (?P<year>\d{4})", re.IGNORECASE),
    re.compile(r"(?P<year>\d{4})年(?P<mnum>\d{1,2})月(?P<day>\d{1,2})[日号]"),
)
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"[^\W_]+")


def as_date(value: str) -> str | None:
    """Return an ISO date (YYYY-MM-DD) if the value is an ISO date or date-time, else None."""
    found = _ISO.match(value.strip())
    if not found:
        return None
    try:
        return dt.date(*(int(g) for g in found.groups())).isoformat()
    except ValueError:
        return None


def descriptive(meta: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Return a chunk's own descriptive (field, value) pairs, dates as ISO dates, by field name.

    Only text values of the document's own fields count: not the knowledge base's keys, not
    ids, addresses or long texts.
    """
    pairs = []
    for key in sorted(meta):
        value = meta[key]
        if key in RESERVED or key.endswith("_id") or key == "doc_id" or not isinstance(value, str):
            continue
        value = " ".join(value.split())
        if not MIN_VALUE_CHARS <= len(value) <= MAX_VALUE_CHARS or "://" in value:
            continue
        pairs.append((key, as_date(value) or value))
    return pairs


def header(meta: Mapping[str, Any]) -> str:
    """Return the line of a chunk's descriptive values that search reads with its text."""
    shown = []
    for _, value in descriptive(meta):
        date = as_date(value)
        shown.append(f"{date} ({_spelled(date)})" if date else value)
    return " · ".join(shown)


def _spelled(date: str) -> str:
    """Return an ISO date as people write it: 'November 24, 2023'."""
    day = dt.date.fromisoformat(date)
    return f"{_MONTHS[day.month - 1].capitalize()} {day.day}, {day.year}"


def dates_in(text: str) -> set[str]:
    """Return the ISO dates a text writes (2023-11-24, November 24, 2023, 24 Nov 2023, 年月日)."""
    found = set()
    for pattern in _WRITTEN_DATES:
        for match in pattern.finditer(text):
            parts = match.groupdict()
            month = int(parts["mnum"]) if parts.get("mnum") else _month(parts["month"])
            try:
                found.add(dt.date(int(parts["year"]), month, int(parts["day"])).isoformat())
            except ValueError:
                continue
    return found


def _month(name: str) -> int:
    """Return a month's number from its English name or its three-letter abbreviation."""
    return next(i for i, m in enumerate(_MONTHS, start=1) if m.startswith(name.lower()[:3]))


def nameable(value: str, held: int, size: int) -> bool:
    """Return whether a question naming this value is searched within it.

    Only names count: a value in lower case letters only is a common word (a category, a tag),
    and one most chunks hold would narrow nothing.
    """
    return not value.islower() and held <= MAX_SHARE * size


@dataclass(frozen=True)
class Named:
    """A value a question names: its field, the value, and the chunks that hold it."""

    field: str
    value: str
    positions: np.ndarray
    """The chunks that hold it, as positions in the keyword index (empty where a store looks
    them up itself)."""
    revision: str = ""
    """The revision `positions` belong to."""
    count: int = -1
    """How many chunks hold it (-1: as many as `positions`)."""

    @property
    def held(self) -> int:
        """Return how many chunks hold the value."""
        return len(self.positions) if self.count < 0 else self.count

    @property
    def label(self) -> str:
        """Return 'field: value', as diagnostics show it."""
        return f"{self.field}: {self.value}"


class FacetIndex:
    """Per field and value, the positions (as in the keyword index) of the chunks that hold it."""

    def __init__(self, values: dict[str, dict[str, list[int]]], size: int) -> None:
        self.values = values
        self.size = size
        # the values a question may name, by their first two words (Chinese: two characters)
        # and dates by date, so a question is matched against the few values that can stand in
        # it, not against all of them
        self._by_start: dict[str, list[tuple[str, str]]] = {}
        self._by_date: dict[str, list[tuple[str, str]]] = {}
        for field, held in values.items():
            for value in held:
                if as_date(value):
                    self._by_date.setdefault(value, []).append((field, value))
                elif start := _start(value):
                    self._by_start.setdefault(start, []).append((field, value))
        self._positions: dict[tuple[str, str], np.ndarray] = {}  # made when first named

    @classmethod
    def build(cls, metas: list[Mapping[str, Any]]) -> FacetIndex:
        """Index the values a question can name (`nameable`) by chunk position, in list order."""
        found: dict[tuple[str, str], list[int]] = {}
        for position, meta in enumerate(metas):
            for field, value in descriptive(meta):
                found.setdefault((field, value), []).append(position)
        values: dict[str, dict[str, list[int]]] = {}
        for (field, value), at in found.items():
            if nameable(value, len(at), len(metas)):
                values.setdefault(field, {})[value] = at
        return cls(values, len(metas))

    def to_json(self) -> dict[str, Any]:
        """Return the index as JSON-ready data (saved with the keyword index)."""
        return {"values": self.values, "size": self.size}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FacetIndex:
        """Read what `to_json` wrote; ValueError for any other form (the index is rebuilt)."""
        values = dict(data["values"])
        for held in values.values():
            if not all(isinstance(at, list) for at in held.values()):
                raise ValueError("facet positions saved in another form")
        return cls(values, int(data["size"]))

    def named(self, question: str, revision: str = "") -> list[Named]:
        """Return the values the question names (at most MAX_NAMED, longest first).

        A value is named when the question writes it as stored (not inside a longer word), or,
        for a date, in any of the forms `dates_in` reads; only `nameable` values are indexed.
        """
        candidates = {pair for start in _starts(question) for pair in self._by_start.get(start, ())}
        candidates.update(pair for day in dates_in(question) for pair in self._by_date.get(day, ()))
        named: list[Named] = []
        for field, value in choose(question, candidates):
            at = self._positions.get((field, value))
            if at is None:
                at = np.asarray(self.values[field][value], dtype=np.int64)
                at.flags.writeable = False  # shared by every question that names the value
                self._positions[(field, value)] = at
            named.append(Named(field, value, at, revision))
        return named


def lookup_keys(question: str) -> tuple[set[str], set[str]]:
    """Return the keys (`_start`) and the ISO dates a value the question names can be found by."""
    return _starts(question), dates_in(question)


def start_key(value: str) -> str:
    """Return the key a stored value is found by: its ISO date, or its first two words."""
    return as_date(value) or _start(value)


def choose(question: str, candidates: set[tuple[str, str]]) -> list[tuple[str, str]]:
    """Return the (field, value) candidates the question names, at most MAX_NAMED, longest first.

    A value is named when the question writes it as stored (not inside a longer word), or, for
    a date, in any of the forms `dates_in` reads.
    """
    days = dates_in(question)
    taken: list[tuple[int, int]] = []
    chosen: list[tuple[str, str]] = []
    # longest first, so "The Sydney Morning Herald" is taken before a shorter value in it
    for field, value in sorted(candidates, key=lambda pair: (-len(pair[1]), pair)):
        span = _span(value, question)
        if span is not None:
            if any(span[0] < end and start < span[1] for start, end in taken):
                continue  # inside a longer value already named
            taken.append(span)
        elif value not in days:  # a date may be written another way: dates_in reads it
            continue
        chosen.append((field, value))
        if len(chosen) == MAX_NAMED:
            break
    return chosen


def _start(value: str) -> str:
    """Return the key a value is looked up by: its first two words (Chinese: two characters).

    Leading marks are passed over: 《人民日报》 is looked up by 人民. Two words, not one, so that
    values sharing a first word ("The Verge", "The Guardian") are not all candidates at once.
    """
    value = value[next((i for i, c in enumerate(value) if c.isalnum()), 0) :]
    if _CJK.match(value):
        return value[:2]
    return " ".join(_WORD.findall(_CJK.sub(" ", value))[:2])


def _starts(text: str) -> set[str]:
    """Return every key (`_start`) a value standing in the text can have."""
    words = _WORD.findall(_CJK.sub(" ", text))
    keys = set(words)
    keys.update(f"{first} {second}" for first, second in zip(words, words[1:], strict=False))
    keys.update(text[i : i + 2] for i in range(len(text) - 1) if _CJK.match(text[i]))
    return keys


def _span(value: str, text: str) -> tuple[int, int] | None:
    """Return where a value stands in a text as written: not inside a longer word.

    A Chinese character beside it is a boundary (Chinese runs on without spaces); a letter or
    digit is not, unless the value itself ends in Chinese there.
    """
    start = text.find(value)
    while start >= 0:
        end = start + len(value)
        before, after = text[start - 1 : start], text[end : end + 1]
        if _bounds(before, value[0]) and _bounds(after, value[-1]):
            return (start, end)
        start = text.find(value, start + 1)
    return None


def _bounds(neighbour: str, edge: str) -> bool:
    """Return whether a value's edge character ends a word where this neighbour stands."""
    return (
        not neighbour or not neighbour.isalnum() or bool(_CJK.match(neighbour) or _CJK.match(edge))
    )
