"""Sentences that only point at their sources are dropped by the grounding repair."""

from __future__ import annotations

import pytest
from adaptive_rag.core.grounding import check
from adaptive_rag.core.grounding.answer_check import DROPPED
from adaptive_rag.core.grounding.pointers import points_only
from fake_sources import SAMPLE

RETURNS = (SAMPLE / "policies/returns.md").read_text()
FAQ = (SAMPLE / "zh/产品常见问题.md").read_text()


@pytest.mark.parametrize(
    "sentence",
    [
        "This information can be found in the source.",
        "This can be found in source.",
        "For more details, see the provided documents.",
        "The answer is stated in the sources.",
        "这个信息可以在中找到。",
        "以上信息来自文档。",
        'This can be found in the table under "Print speed" on page .',
        "详见表格。",
        "and.",
        "。",
    ],
)
def test_pointing_sentences_are_recognised(sentence: str) -> None:
    assert points_only(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Yes, according to the sources.",
        "No, the sources do not say.",
        "The sources do not mention a fee.",
        "The document says the fee is 10 %.",
        "Returns are free in the European Union, according to the source.",
        "文档中没有提到保修期。",
        "The fee is 10 %.",
        "Yes.",
        "No.",
        "10 %.",
        "Kestrel.",
        "Before.",
        "Same.",
        "对。",
        "This is stated in.",
        'Press "Add sensor" in the table.',
        "See page 3.",
        "It also has a table.",
        'The page says "Returns are free".',
        'This can be found under "Print speed".',
    ],
)
def test_sentences_that_say_something_are_kept(sentence: str) -> None:
    assert not points_only(sentence)


def test_a_pointer_after_a_cited_sentence_is_dropped() -> None:
    answer = (
        "Products returned between 31 and 45 days carry a restocking fee of 10 % [1]. "
        "This information can be found in source [1]."
    )
    grounding = check(answer, [RETURNS], "What is the restocking fee for a late return?")
    assert grounding.answer == (
        "Products returned between 31 and 45 days carry a restocking fee of 10 % [1]."
    )
    assert [s.status for s in grounding.sentences] == ["supported", "no_content"]
    assert grounding.sentences[1].message == DROPPED
    assert grounding.sentences[1].cites == ()
    assert grounding.changed


def test_the_line_break_after_a_dropped_pointer_stays() -> None:
    answer = "Refunds take 10 business days [1]. See source [1] for details.\nShipping is free."
    repaired = check(answer, [RETURNS]).answer
    assert repaired == "Refunds take 10 business days [1].\nShipping is free [1]."


def test_a_bare_sentence_before_takes_the_pointers_citation() -> None:
    # Nothing in the first sentence can be compared with the source: unchecked, uncited.
    answer = "Write to us first. This can be found in source [1]."
    grounding = check(answer, [RETURNS])
    assert grounding.answer == "Write to us first [1]."
    assert grounding.sentences[0].cites == (1,)


def test_an_unsupported_sentence_does_not_take_the_pointers_citation() -> None:
    answer = "The fee is 25 %. This can be found in source [1]."
    grounding = check(answer, [RETURNS])
    assert grounding.answer == "The fee is 25 %."
    assert grounding.sentences[0].status == "unsupported"
    assert grounding.sentences[0].cites == ()


def test_a_pointer_in_chinese_is_dropped() -> None:
    answer = "Kestrel K2 的外壳防护等级是 IP67[1]。这个信息可以在[1]中找到。"
    grounding = check(answer, [FAQ], "Kestrel K2 的外壳防护等级是多少？")
    assert grounding.answer == "Kestrel K2 的外壳防护等级是 IP67[1]。"


def test_a_pointer_that_opens_the_answer_is_left_alone() -> None:
    answer = "As the source [1] says: the fee is 10 % [1]."
    assert check(answer, [RETURNS]).answer == answer


def test_a_sentence_of_citations_only_is_dropped() -> None:
    answer = "Refunds take 10 business days [1]. [1] and [1]."
    grounding = check(answer, [RETURNS])
    assert grounding.answer == "Refunds take 10 business days [1]."
    assert grounding.sentences[1].message == DROPPED
