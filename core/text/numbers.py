"""Numbers in text, normalised so that one quantity written two ways compares equal.

A number is its value and, when a known unit follows it, the unit's canonical name: "10 %",
"10%", "10 per cent" and "百分之十" all read "10 %"; "1,200" and "1200" read "1200"; "two-year",
"2 years" and "两年" read "2 year"; "March" and "3月" read "3 mon" (a calendar month, apart from
"3 month", a duration). A measure word that is not a unit (个, 节, "sensors") leaves the number
bare. Number words count where they are cheap to read: English two to ninety, and "one" only
before a unit ("one-minute"); Chinese numerals only before a unit or measure word, and 一 only
before a unit (一个 and 一次 are mostly articles). A text searched for a number (a source) is read
with its articles too (`articles=True`), so an answer's "1个机场" is found in "只有一个国际机场",
while "一个" in an answer claims nothing.

Units are canonical across the two languages, so a Chinese answer's "45 天" is found in an
English source's "45 days".
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

_UNITS: dict[str, tuple[str, ...]] = {
    "%": ("%", "％", "percent", "per cent", "pct"),
    "year": ("years", "year", "yrs", "yr", "年"),
    "month": ("months", "month", "个月"),
    "mon": ("月",),
    "week": ("weeks", "week", "个星期", "星期", "周"),
    "day": ("days", "day", "个工作日", "工作日", "天", "日"),
    "hour": ("hours", "hour", "hrs", "hr", "h", "个小时", "小时"),
    "minute": ("minutes", "minute", "mins", "min", "分钟"),
    "second": ("seconds", "secs", "sec", "s", "秒钟", "秒"),
    "km": ("kilometres", "kilometre", "kilometers", "kilometer", "km", "公里", "千米"),
    "m": ("metres", "metre", "meters", "meter", "m", "米"),
    "cm": ("centimetres", "centimeters", "cm", "厘米"),
    "mm": ("millimetres", "millimeters", "mm", "毫米"),
    "kg": ("kilograms", "kilogram", "kg", "公斤", "千克"),
    "g": ("grams", "gram", "g", "克"),
    "eur": ("euros", "euro", "eur", "€", "欧元"),
    "usd": ("dollars", "dollar", "usd", "$", "美元"),
    "cny": ("yuan", "rmb", "cny", "¥", "人民币", "元", "块"),
    "gbp": ("pounds", "gbp", "£", "英镑"),
    "°c": ("degrees celsius", "°c", "℃", "摄氏度"),
    "age": ("years old", "岁"),
    "x": ("times", "倍"),
    **{u: (u,) for u in ("ppm", "ghz", "mhz", "khz", "mah", "kwh", "kw", "gb", "mb", "tb")},
}
"""Canonical unit -> its spellings (English matched case-insensitively, Chinese as written)."""

_MEASURE = "个节次台位名家款种项条张件只人号层份套箱包组部辆"
"""Chinese measure words: they make a numeral a number but are not units."""

_CANON = {s: unit for unit, spellings in _UNITS.items() for s in spellings}
_ZH_UNIT = [s for s in _CANON if re.search(r"[^\x00-\x7f]", s) and len(s) == len(s.encode()) // 3]
_SYMBOL = [s for s in _CANON if s not in _ZH_UNIT and not s.replace(" ", "").isalpha()]
_LONG_UNIT = [s for s in _CANON if s not in _ZH_UNIT + _SYMBOL and len(s) > 3]
_SHORT_UNIT = [s for s in _CANON if s not in _ZH_UNIT + _SYMBOL + _LONG_UNIT]


def _any(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def _unit_after(group: str) -> str:
    """Return the pattern of a unit after a number: a word (one may stand between), or a sign."""
    return (
        rf"(?:\s?-?\s?(?:(?:[a-z]+\s)?(?P<{group}w>{_any(_LONG_UNIT)})\b"
        rf"|(?P<{group}a>{_any(_SHORT_UNIT)})\b|(?P<{group}s>{_any(_SYMBOL)})"
        rf"|(?P<{group}z>{_any(_ZH_UNIT)})))?"
    )


_WORDS = {
    w: n
    for n, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
        " fifteen sixteen seventeen eighteen nineteen".split()
    )
} | {
    w: 10 * n
    for n, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)
}
_MONTHS = {
    m: n
    for n, m in enumerate(
        "January February March April May June July August September October November"
        " December".split(),
        1,
    )
}
_CN_DIGIT = dict(zip("零〇一二两三四五六七八九", (0, 0, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9), strict=True))
_CN_UNIT = {"十": 10, "百": 100, "千": 1000}
_CN_BIG = {"万": 10**4, "亿": 10**8}
_SCALE = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "万": 10**4, "亿": 10**8}
CN_NUMERAL = "零〇一二两三四五六七八九十百千"
"""The characters of a Chinese numeral below 万 (ten thousand)."""
_CN = f"{CN_NUMERAL}万亿"
_DIGITS = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])|\d+(?:\.\d+)?"

_FIRST = "".join(sorted({w[0].lower() for w in [*_WORDS, *_MONTHS]}))
_NUMBER = re.compile(
    # the look-ahead lets most positions fail at once: only these characters can start a number
    rf"(?=[\d$€£¥百第{_CN}]|(?<![A-Za-z])[{_FIRST}])(?:"
    rf"(?P<cur>[$€£¥])?(?<![A-Za-z0-9_.])(?P<num>\d{{1,2}}:\d{{2}}(?!\d)|{_DIGITS})"
    rf"(?:(?P<ord>st|nd|rd|th)\b|\s?(?P<scale>thousand|million|billion|万|亿)|){_unit_after('d')}"
    rf"|百分之(?P<pct>[{_CN}]+|{_DIGITS})"
    rf"|第(?P<nth>[{_CN}]+|\d+)"
    rf"|(?P<cn>[{_CN}]+)(?P<cnu>{_any(_ZH_UNIT)}|[{_MEASURE}])"
    rf"|(?<![A-Za-z])(?P<word>{_any(list(_WORDS))})(?:-(?P<word2>{_any(list(_WORDS)[1:10])}))?"
    rf"(?![A-Za-z]){_unit_after('w')}"
    rf"|(?-i:(?<![A-Za-z])(?P<month>{_any(list(_MONTHS))})(?![A-Za-z])))",
    re.IGNORECASE,
)


def _value(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(",", ""))
    except InvalidOperation:
        return None


def cn_value(numeral: str) -> int:
    """Return the value of a Chinese numeral: 十五 15, 一百二十 120, 两万 20000, 二〇一九 2019."""
    if len(numeral) > 1 and all(c in _CN_DIGIT for c in numeral):
        return int("".join(str(_CN_DIGIT[c]) for c in numeral))
    total = section = digit = 0
    for c in numeral:
        if c in _CN_DIGIT:
            digit = _CN_DIGIT[c]
        elif c in _CN_UNIT:
            section += (digit or 1) * _CN_UNIT[c]
            digit = 0
        elif c in _CN_BIG:
            total += (section + digit or 1) * _CN_BIG[c]
            section = digit = 0
    return total + section + digit


def _form(value: Decimal | int, unit: str | None) -> str:
    number = format(Decimal(value).normalize(), "f")
    return f"{number} {unit}" if unit else number


def _unit_of(match: re.Match[str], group: str) -> str | None:
    spelled = next((s for s in (match.group(group + k) for k in "wasz") if s), None)
    return _CANON.get(spelled.lower()) if spelled else None


def _digits(match: re.Match[str]) -> str | None:
    text = match.group("num")
    if ":" in text:
        hours, minutes = text.split(":")
        return f"{int(hours)}:{minutes}"
    value = _value(text)
    if value is None:
        return None
    if match.group("ord"):
        return _form(value, "ord")
    if match.group("scale"):
        value *= _SCALE[match.group("scale").lower()]
    currency = match.group("cur")
    return _form(value, _CANON[currency] if currency else _unit_of(match, "d"))


def _numeral(match: re.Match[str], articles: bool) -> str | None:
    count = cn_value(match.group("cn"))
    unit = _CANON.get(match.group("cnu"))
    return None if unit is None and count == 1 and not articles else _form(count, unit)


def _word(match: re.Match[str], articles: bool) -> str | None:
    count = _WORDS[match.group("word").lower()]
    if match.group("word2"):
        count += _WORDS[match.group("word2").lower()]
    unit = _unit_of(match, "w")
    return None if count < 2 and unit is None and not articles else _form(count, unit)


def _read(match: re.Match[str], articles: bool) -> str | None:
    """Return one match's normal form, or None when it is not read as a number."""
    if match.group("num"):
        return _digits(match)
    if pct := match.group("pct"):
        return _form((_value(pct) or 0) if pct[0].isdigit() else cn_value(pct), "%")
    if nth := match.group("nth"):
        return _form(int(nth) if nth.isdigit() else cn_value(nth), "ord")
    if match.group("cn"):
        return _numeral(match, articles)
    if match.group("word"):
        return _word(match, articles)
    month = match.group("month")
    following = match.string[match.end() : match.end() + 2].strip()
    if not month or (month == "May" and not following[:1].isdigit()):
        return None
    return _form(_MONTHS[month], "mon")


def numbers_in(text: str, articles: bool = False) -> list[tuple[str, int, int]]:
    """Return each number of a text as (normal form, start, end), in order.

    articles=True also reads "one" and 一 with a measure word as 1 (for a text searched, not read).
    """
    found = []
    for match in _NUMBER.finditer(text):
        form = _read(match, articles)
        if form is not None:
            found.append((form, match.start(), match.end()))
    return found


def bare(number: str) -> str:
    """Return a normal form's value without its unit ("45 day" -> "45")."""
    return number.split(" ", 1)[0]
