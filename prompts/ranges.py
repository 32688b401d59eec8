"""Where a quantity the question names falls within a range a source states.

A small model reads "between 31 and 45 days … a restocking fee of 10 %" and still cannot say
whether 40 days is in it. This module does that comparison, which is arithmetic rather than
reading: the question's quantities (a number with a unit, `core.text.numbers`) are matched against
the two-ended ranges the sources state ("between 31 and 45 days", "31–45 days", "1 to 3 hours",
"6至20公斤", "在30与45天之间"), and each quantity inside one becomes a line the prompt can carry:
'40 days is between 31 and 45 days, so this applies: "<the source's sentence>" [1]'.

Only what is surely a range of quantities is read. Not compared: dates (1953年, March, 10月18日,
any 日), one-sided bounds ("within 45 days": which side an edge falls on is wording), negative
numbers, a change ("rose from 5 to 10 euros"), a label's number ("Rule 4 – 60 days"), an end
with a scale word the other lacks ("5 to 10 million"), and a range whose sentence shares no name
or word with the question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from adaptive_rag.core.text import (
    CN_NUMERAL,
    Language,
    Terms,
    cn_value,
    found_in,
    language_of,
    numbers_in,
    terms_of,
)

_JOINS = re.compile(
    r"^\s*(?:(?P<and>and|和|与)|to|through|thru|-|–|—|−|－|~|～|〜|至|到)\s*$", re.IGNORECASE
)
"""What may stand between a range's two ends ("and", 和, 与 only after "between", 介于 or 在)."""
_BETWEEN = re.compile(r"(?:\bbetween|介于|在)\s*$", re.IGNORECASE)
_CHANGE = re.compile(
    r"\b(?:rose|risen|rises|increased|decreased|changed|reduced|raised|fell|fallen|dropped|grew"
    r"|went up|went down|cut|extended|moved)\b[^.;]{0,30}\bfrom\s*$"
    r"|(?:涨|升|降|增加|减少|调整|提高)[^。；]{0,10}从\s*$",
    re.IGNORECASE,
)
"""A "from … to" after a verb of change states a change, not a range."""
_LABEL = re.compile(
    r"\b(?:rule|step|tier|version|section|art|article|page|level|grade|no|number|chapter|item)"
    r"\.?\s*$",
    re.IGNORECASE,
)
"""A word that makes the number after it a label ("Rule 4 – 60 days")."""
_SCALE = re.compile(r"thousand|million|billion|万|亿", re.IGNORECASE)
_SIGN = re.compile(r"(?:^|[^\w.,])[-−]$|零下$|负$")
"""A negative number's sign ("-5", 零下5, 负五; not a list's "- " nor a dash between numbers)."""
_NOT_A_DURATION = re.compile(r"^[级代元]")
"""年级 (school year), 年代 (decade), 日元 (yen) are not durations."""
_ORDINAL_DAY = re.compile(r"第(?=[\d零〇一二两三四五六七八九十百]+(?:天|周|个月|年))")
"""第40天 ("the 40th day") is compared as 40 days."""
_SENTENCE_END = re.compile(
    r"(?<!\b[A-Za-z])(?<!\b[A-Z][a-z])(?<!\b[A-Z][a-z][a-z])[.!?](?=\s+[A-Z\"“(\[])"
    r"|[.!?](?=\s*$)|[。！？；]|\n\s*\n|\n(?=[ \t]*(?:[-*+|#]|\d+[.)]\s))"
)
"""A sentence ends at . ! ? before a capital (not after "U.S.", "Fig.", "Art."), at 。！？；, at a
blank line, or where a list item, table row or heading starts (a wrapped line goes on)."""
_SENTENCE_CHARS = 300
"""The most of a sentence quoted: that many characters around its range."""
_MOST = 3
"""The most lines for one question."""
_CN_LOW_END = re.compile(
    rf"(?<![{CN_NUMERAL}万亿\d第初周统唯逐之单同划专])[{CN_NUMERAL}]+"
    rf"(?=\s*(?:至|到|和|与|~|～|〜|－|-|–|—|−)\s*(?P<high>[{CN_NUMERAL}]+|\d))"
)
"""The low end of "三至五天": a Chinese numeral before a join, with no unit of its own; not the
一 of a word (统一, 之一, 初一) nor an ordinal (第三)."""
_SHARED_PLACE = re.compile(r"[一二两三四五六七八九][十百千]$")
"""A high end ending in a place ("五千") may lend it to a low end without one ("三至五千元")."""
_ERA_LEAD = re.compile(r"[\u4e00-\u9fff]$")
_YEARS_LEAD = re.compile(r"(?:为期|期限|约|需|需要|要|达|满|长达|在|至|从|历时|持续)$")
"""What may stand before a span of years in Chinese numerals ("为期五到八年"); anything else
Chinese there is likely an era's name ("乾隆三十至四十年")."""
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
    """The source's sentence that states the range, as written (at most _SENTENCE_CHARS)."""

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
    **{u: f"{u}s" for u in ("day", "week", "month", "year", "hour", "minute", "second")},
    **{"age": "years old", "eur": "euros", "usd": "dollars", "cny": "yuan", "gbp": "pounds"},
    **{"x": "times", "°c": "°C", "gb": "GB", "mb": "MB", "tb": "TB", "mah": "mAh", "kwh": "kWh"},
}
_ZH_UNIT = {
    **{"day": "天", "week": "周", "month": "个月", "year": "年", "hour": "小时", "minute": "分钟"},
    **{"second": "秒", "age": "岁", "eur": "欧元", "usd": "美元", "cny": "元", "gbp": "英镑"},
    **{"x": "倍", "km": "公里", "m": "米", "kg": "公斤", "°c": "°C", "gb": "GB", "mb": "MB"},
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


Quantity = tuple[tuple[Decimal, str], int, int]


def _quantities(text: str) -> list[Quantity]:
    """Return the text's quantities as ((value, unit), start, end), dates and negatives skipped."""
    found = []
    read = numbers_in(text)
    for form, start, end in read:
        quantity = _split(form)
        if quantity is None or _SIGN.search(text[max(0, start - 3) : start]):
            continue
        written, after = text[start:end], text[end : end + 1]
        if written.endswith("日") and not written.endswith("工作日"):
            continue  # 18日 is the 18th of a month far more often than 18 days
        if quantity[1] in {"year", "day"} and _NOT_A_DURATION.match(after):
            continue
        found.append((quantity, start, end))
    for low in _CN_LOW_END.finditer(text):
        if any(start < low.end() and low.start() < end for _, start, end in read):
            continue
        if _SIGN.search(text[max(0, low.start() - 3) : low.start()]):
            continue
        if _SHARED_PLACE.search(low.group("high")) and not re.search("[十百千]", low.group()):
            continue  # "三至五千": 3 or 3,000?
        found.append(((Decimal(cn_value(low.group())), ""), low.start(), low.end()))
    return sorted(found, key=lambda item: item[1])


def _ranges(text: str) -> list[tuple[Decimal, Decimal, str, int]]:
    """Return the ranges a text states, each with where it starts."""
    found = []
    numbers = _quantities(text)
    for (low, begin, end), (high, start, stop) in zip(numbers, numbers[1:], strict=False):
        join = _JOINS.match(text[end:start])
        before = text[max(0, begin - 60) : begin]
        if join is None or (join.group("and") and not _BETWEEN.search(before)):
            continue
        if _CHANGE.search(before) or (not low[1] and _LABEL.search(before)):
            continue
        if bool(_SCALE.search(text[begin:end])) != bool(_SCALE.search(text[start:stop])):
            continue
        unit = high[1] or low[1]
        if not unit or (low[1] and low[1] != unit) or low[0] >= high[0]:
            continue
        if unit == "year" and text[begin] in CN_NUMERAL and _era(text, begin, stop):
            continue
        found.append((low[0], high[0], unit, begin))
    return found


def _era(text: str, begin: int, stop: int) -> bool:
    """Whether years in Chinese numerals are an era's ("乾隆三十至四十年间"), not a duration."""
    before = text[max(0, begin - 4) : begin]
    return text[stop : stop + 1] == "间" or (
        bool(_ERA_LEAD.search(before)) and not _YEARS_LEAD.search(before)
    )


def _sentence_at(text: str, position: int) -> str:
    """Return the sentence that holds a position, whitespace folded, cut around it if long."""
    start = 0
    for boundary in _SENTENCE_END.finditer(text, 0, position):
        start = boundary.end()
    end_match = _SENTENCE_END.search(text, position)
    end = end_match.end() if end_match else len(text)
    if end - start > _SENTENCE_CHARS:
        half = _SENTENCE_CHARS // 2
        cut_start, cut_end = max(start, position - half), min(end, position + half)
        head = "…" if cut_start > start else ""
        tail = "…" if cut_end < end else ""
        return head + " ".join(text[cut_start:cut_end].split()) + tail
    return " ".join(text[start:end].split())


def _plain(value: Decimal) -> str:
    return format(value.normalize(), "f")


def _on_topic(asked: Terms, language: Language, sentence: str) -> bool:
    """Whether the sentence holds one of the question's names or content words.

    A sentence in the other language cannot be compared word for word, and passes.
    """
    if language_of(sentence) != language:
        return True
    found = found_in(asked, sentence)
    return bool(found.names or found.words)


def within(question: str, sources: list[str]) -> list[Within]:
    """Return each quantity of the question that falls inside a range a source states.

    Only a quantity with a unit is compared, only with a range in the same unit, and only when
    the range's sentence is about something the question names; at most _MOST lines, the first
    source's first.
    """
    question = _ORDINAL_DAY.sub("", question)
    asked = [q for q, _, _ in _quantities(question) if q[1]]
    if not asked:
        return []
    topic, language = terms_of(question), language_of(question)
    lines: dict[tuple[str, str, str, str, int], Within] = {}
    for number, text in enumerate(sources, start=1):
        for low, high, unit, begin in _ranges(text):
            for value, asked_unit in asked:
                key = (_plain(value), _plain(low), _plain(high), unit, number)
                if asked_unit != unit or not low <= value <= high or key in lines:
                    continue
                sentence = _sentence_at(text, begin)
                if _on_topic(topic, language, sentence):
                    lines[key] = Within(*key, sentence)
    return list(lines.values())[:_MOST]
