"""Numbers read the same whichever way they are written, in English and Chinese."""

from __future__ import annotations

import pytest
from adaptive_rag.core.text import cn_value, numbers_in
from adaptive_rag.core.text.numbers import bare


def forms(text: str) -> list[str]:
    return [form for form, _, _ in numbers_in(text)]


@pytest.mark.parametrize(
    ("texts", "form"),
    [
        (["10 %", "10%", "10 per cent", "10 percent", "百分之十", "10％"], "10 %"),
        (["1,200", "1200"], "1200"),
        (["$1,200", "1200 dollars"], "1200 usd"),
        (["1.5 million", "1500000"], "1500000"),
        (["two-year", "2 years", "两年", "2年", "two years"], "2 year"),
        (["45 days", "45 天", "45天", "forty-five days"], "45 day"),
        (["10 business days", "10 个工作日"], "10 day"),
        (["14 months", "14 个月", "fourteen months"], "14 month"),
        (["120 km", "120公里", "120 kilometres"], "120 km"),
        (["one-minute", "1 minute", "一分钟"], "1 minute"),
        (["189 EUR", "€189", "189 euros", "189欧元"], "189 eur"),
        (["60 °C", "60℃"], "60 °c"),
        (["2nd", "第二"], "2 ord"),
        (["08:00", "8:00"], "8:00"),
        (["1.5万", "15000"], "15000"),
    ],
)
def test_one_quantity_written_many_ways_reads_the_same(texts: list[str], form: str) -> None:
    for text in texts:
        assert forms(text) == [form], text


def test_dates_read_as_year_and_calendar_month_in_both_languages() -> None:
    assert forms("March 2023") == ["3 mon", "2023"]
    assert forms("2023年3月") == ["2023 year", "3 mon"]
    assert forms("1961") == ["1961"]
    assert forms("3 months") == ["3 month"]  # a duration, not March


@pytest.mark.parametrize(
    "text",
    [
        "Kestrel K2 IP67 CO2 S2",  # digits inside names are not numbers
        "one of them",  # "one" is an article unless a unit follows
        "一个网关，一次",  # so is 一
        "一般来说十分统一",  # numerals inside ordinary words
        "May I ask",
    ],
)
def test_what_is_not_a_number(text: str) -> None:
    assert forms(text) == []


def test_numbers_keep_their_place_and_bare_value() -> None:
    text = "签收 31 天到 45 天之间退货的，收取 10% 的手续费"
    assert forms(text) == ["31 day", "45 day", "10 %"]
    form, start, end = numbers_in(text)[2]
    assert text[start:end] == "10%"
    assert bare("45 day") == "45" and bare("1961") == "1961"
    assert forms("a pack of five costs 1,099 EUR and two AA cells") == ["5", "1099 eur", "2"]


@pytest.mark.parametrize(
    ("numeral", "value"),
    [
        ("十", 10),
        ("十五", 15),
        ("一百二十", 120),
        ("两万", 20000),
        ("二〇一九", 2019),
        ("三千零五", 3005),
    ],
)
def test_chinese_numerals(numeral: str, value: int) -> None:
    assert cn_value(numeral) == value


def test_a_searched_text_reads_its_articles_as_one() -> None:
    # An answer's "一个" claims nothing, but an answer's "1个" is found in a source's "一个".
    assert forms("只有一个国际机场") == []
    assert [f for f, _, _ in numbers_in("只有一个国际机场", articles=True)] == ["1"]
    assert [f for f, _, _ in numbers_in("one of the sensors", articles=True)] == ["1"]


def test_a_digit_one_in_an_answer_is_found_in_a_chinese_article() -> None:
    from adaptive_rag.core.grounding import check

    source = "莱索托只有一个国际机场，就是莫舒舒一世国际机场。"
    grounding = check("莱索托有1个国际机场[1]。", [source], "莱索托有几个国际机场？")
    assert [s.status for s in grounding.sentences] == ["supported"]
    assert [s.status for s in check("莱索托有3个国际机场[1]。", [source]).sentences] == [
        "unsupported"
    ]
