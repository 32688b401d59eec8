"""Where a quantity the question names falls within a range a source states.

A small model reads "between 31 and 45 days … a restocking fee of 10 %" and still cannot say
whether 40 days is in it. This module does that comparison, which is arithmetic rather than
reading: the question's quantities (a number with a unit, `core.numbers`) are matched against
the two-ended ranges the sources state ("between 31 and 45 days", "31–45 days", "31 to 45
days", "31至45天"), and each quantity inside one becomes a short line the answer's prompt can
carry ("40 days is between 31 and 45 days [1]."). One-sided bounds ("within 45 days", "more
than 30 days") are left to the reader: which side a rule's edge falls on is wording, not
arithmetic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from adaptive_rag.core.language import Language
from adaptive_rag.core.numbers import numbers_in

_JOINS = re.compile(
    r"^\s*(?:(?P<and>and)|to|-|–|—|~|～|至|到)\s*$",
    re.IGNORECASE,
)
"""What may stand between a range's two ends ("and" only after "between", or 介于/在)."""
_BETWEEN = re.compile(r"(?:\bbetween|介于|在)\s*$", re.IGNORECASE)
_ORDINAL_DAY = re.compile(r"第(?=[\d零〇一二两三四五六七八九十百]+(?:天|日|周|个月|年))")
"""第40天 ("the 40th day") is compared as 40 days."""
_MAX_NOTES = 3
_SENTENCE_END = re.compile(r"[.!?](?=\s)|[。！？；]|\n\s*\n")
_NOT_QUANTITIES = {"ord", "mon"}
_CALENDAR_YEAR = 1000


@dataclass(frozen=True)
class Within:
    """A quantity of the question inside a range of one source (numbered from 1)."""

    quantity: str
    low: str
    high: str
    unit: str
    source: int
    sentence: str
    """The source's sentence that states the range, as written."""

    def line(self, language: Language) -> str:
        """Say it in the answer's language: the comparison, then the sentence that applies."""
        if language == "zh":
            unit = _ZH_UNIT.get(self.unit, self.unit)
            return (
                f"{self.quantity}{unit}在{self.low}至{self.high}{unit}之间，"
                f"因此适用：“{self.sentence}”[{self.source}]"
            )
        unit = _EN_UNIT.get(self.unit, self.unit)
        return (
            f"{self.quantity} {unit} is between {self.low} and {self.high} {unit}, so this "
            f'applies: "{self.sentence}" [{self.source}]'
        )


_EN_UNIT = {
    "day": "days",
    "week": "weeks",
    "month": "months",
    "year": "years",
    "hour": "hours",
    "minute": "minutes",
    "second": "seconds",
    "age": "years old",
    "eur": "euros",
    "usd": "dollars",
    "cny": "yuan",
    "gbp": "pounds",
    "x": "times",
    "°c": "°C",
}
_ZH_UNIT = {
    "day": "天",
    "week": "周",
    "month": "个月",
    "year": "年",
    "hour": "小时",
    "minute": "分钟",
    "second": "秒",
    "age": "岁",
    "eur": "欧元",
    "usd": "美元",
    "cny": "元",
    "gbp": "英镑",
    "x": "倍",
    "%": "%",
    "km": "公里",
    "m": "米",
    "kg": "公斤",
}


def _split(form: str) -> tuple[Decimal, str] | None:
    """Return a quantity's value and unit ("45 day" -> (45, "day")).

    None for what is not a quantity: a time of day, an ordinal, a calendar month or year
    ("1953年" reads "1953 year", a date rather than a duration).
    """
    value, _, unit = form.partition(" ")
    try:
        number = Decimal(value)
    except InvalidOperation:
        return None
    if unit in _NOT_QUANTITIES or (unit == "year" and number >= _CALENDAR_YEAR):
        return None
    return number, unit


def _quantities(text: str) -> list[tuple[tuple[Decimal, str], int, int]]:
    """Return the text's quantities as ((value, unit), start, end); 10月18日 is a date, skipped."""
    found = []
    for form, start, end in numbers_in(text):
        quantity = _split(form)
        if quantity is not None and not (quantity[1] == "day" and text[:start].endswith("月")):
            found.append((quantity, start, end))
    return found


def ranges_in(text: str) -> list[tuple[Decimal, Decimal, str]]:
    """Return the two-ended ranges a text states, as (low, high, unit), in order."""
    return [(low, high, unit) for low, high, unit, _ in _ranges(text)]


def _ranges(text: str) -> list[tuple[Decimal, Decimal, str, int]]:
    """Return the ranges a text states, each with where it starts."""
    found = []
    numbers = _quantities(text)
    for (low, begin, end), (high, start, _) in zip(numbers, numbers[1:], strict=False):
        join = _JOINS.match(text[end:start])
        if join is None or (join.group("and") and not _BETWEEN.search(text[:begin])):
            continue
        unit = high[1] or low[1]
        if not unit or (low[1] and low[1] != unit) or low[0] >= high[0]:
            continue
        found.append((low[0], high[0], unit, begin))
    return found


def _sentence_at(text: str, position: int) -> str:
    """Return the sentence of a text that holds a position, whitespace folded."""
    start = 0
    for boundary in _SENTENCE_END.finditer(text, 0, position):
        start = boundary.end()
    end_match = _SENTENCE_END.search(text, position)
    end = end_match.end() if end_match else len(text)
    return " ".join(text[start:end].split()).strip()


def _plain(value: Decimal) -> str:
    return format(value.normalize(), "f")


def within(question: str, sources: list[str]) -> list[Within]:
    """Return each quantity of the question that falls inside a range a source states.

    Only a quantity with a unit is compared, and only with a range in the same unit; at most a
    few lines, the first source's first.
    """
    asked = [q for q, _, _ in _quantities(_ORDINAL_DAY.sub("", question)) if q[1]]
    if not asked:
        return []
    lines: list[Within] = []
    for number, text in enumerate(sources, start=1):
        for low, high, unit, begin in _ranges(text):
            for value, asked_unit in asked:
                if asked_unit == unit and low <= value <= high:
                    sentence = _sentence_at(text, begin)
                    found = Within(_plain(value), _plain(low), _plain(high), unit, number, sentence)
                    lines.append(found)
    unique = list(dict.fromkeys(lines))
    return unique[:_MAX_NOTES]
