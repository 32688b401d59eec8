"""The asker's language and the answer-text checks, on real sentences in both languages."""

from __future__ import annotations

import pytest
from adaptive_rag.core.text import (
    answers_in,
    cited_numbers,
    cited_sources,
    language_of,
    says_nothing,
    tidy,
    without_citations,
)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("How long does the Kestrel K2 battery last?", "en"),
        ("Kestrel K2 的外壳防护等级是多少？", "zh"),
        ("Who is 李白?", "en"),
        ("那来两瓶吧", "zh"),
        ("Heron 网关支持多少个传感器？", "zh"),
        ("", "en"),
    ],
)
def test_language_is_decided_from_the_script(text: str, language: str) -> None:
    assert language_of(text) == language


def test_a_half_english_answer_to_a_chinese_question_is_caught() -> None:
    assert not answers_in("The Kestrel K2's外壳防护等级 is IP67, as the FAQ says [1].", "zh")
    assert answers_in("Kestrel K2 的外壳防护等级是 IP67 [1]。", "zh")
    assert answers_in("The housing is rated IP67 [1].", "en")
    assert answers_in("[1][2]", "zh")  # no words: nothing to judge


@pytest.mark.parametrize(
    "answer",
    [
        "",
        "[3][4]",
        "The latest Quillon firmware released today is [3][4].",
        "最新固件版本是[2]。",
    ],
)
def test_answers_that_say_nothing(answer: str) -> None:
    assert says_nothing(answer)


@pytest.mark.parametrize(
    "answer",
    [
        "The battery lasts about 14 months at the default interval [1].",
        "Yes [1].",
        "保修期为三年[1]。",
        "这是产品常见问题中提到的[1]。",
    ],
)
def test_answers_that_say_something(answer: str) -> None:
    assert not says_nothing(answer)


def test_citations_are_read_and_tidied() -> None:
    assert cited_numbers("A [2], B [1，3] and [2] again.") == [2, 1, 3]
    assert cited_sources("A [2], B [1，9] and [2] again.", ["one", "two"]) == ["two", "one"]
    assert tidy('根据<source id="1" title="FAQ">，是 IP67。</source>') == "根据[1]，是 IP67。"
    assert without_citations("IP67 [1][2].") == "IP67 ."
