"""Answers that only say the sources lack the answer, in English and Chinese."""

from __future__ import annotations

import pytest
from adaptive_rag.core.grounding import admits_lacking, says_sources_lack


@pytest.mark.parametrize(
    "answer",
    [
        "The sources do not say.",
        "The sources do not say how many Huguenots moved to Manakin Town.",
        "The provided documents don't mention the restocking fee.",
        "This is not mentioned in the sources.",
        "The sources do not say. They do not specify the year either.",
        "资料中没有提到这个信息。",
        "来源中并未说明保修期。",
        "The sources do not say. The sources only mention the 1973 oil crisis.",  # uncited rest
        "资料中没有提到具体年份。文中只讲了第二次石油危机。",
        "Unfortunately, the provided documents don't mention it. They cover the X2's size.",
        "No sources say.",
        "No, the sources do not say that the kettle is red.",  # "No," leads into the admission
        "The parental leave policy is not explicitly stated in the given sources.",
        "The shipping cost of a return is not mentioned in any of the provided documents.",
        "It cannot be determined from the provided sources.",
        "根据提供的资料，无法确定退货是否需要支付运费。",
        "文档中没有明确说明员工的年终奖。",
    ],
)
def test_a_reply_that_only_says_the_sources_lack_it(answer: str) -> None:
    assert says_sources_lack(answer)


@pytest.mark.parametrize(
    "answer",
    [
        "",
        "The fee is 10% [1]. The sources do not say more.",  # a fact, cited
        "The sources do not say it [2].",  # cites: it points somewhere
        "No, a packet cannot be lost. The sources do not support the claim.",
        "Restocking fee is not specified.",  # says nothing about the sources
        "Heron hub 的保修期是两年[1]。",
        "是的，资料没有提到其他型号。",
        "They do not offer refunds after 45 days.",  # "they" are not the sources here
        "They do not include batteries.",
        "The price is 49 dollars. The sources do not say more.",  # the admission comes after
        "The kettle holds 1.7 litres, though the sources do not say its weight. It is red.",
        "Returns cost 10 EUR, which is not stated in the sources.",  # a fact before it
        "Yes, and the sources do not mention other models.",
    ],
)
def test_an_answer_with_more_to_it_is_not(answer: str) -> None:
    assert not says_sources_lack(answer)


QUESTION = "Is there extra pay for the Saturday shifts in December?"


@pytest.mark.parametrize(
    "answer",
    [
        "No, there is no extra pay for the Saturday shifts in December. The sources do not say"
        " anything about extra pay for these shifts.",
        "Yes, Saturday shifts in December are paid extra. Extra pay for Saturday shifts is not"
        " mentioned in the provided sources.",
    ],
)
def test_a_yes_or_no_taken_back_by_its_own_words_is_a_decline(answer: str) -> None:
    assert admits_lacking(answer, QUESTION)


def test_a_chinese_yes_taken_back_is_a_decline() -> None:
    answer = "是的，退货需要支付运费。资料中没有提到退货运费。"
    assert admits_lacking(answer, "退货需要支付运费吗？")


@pytest.mark.parametrize(
    "answer",
    [
        "No, there is no extra pay for Saturday shifts [1]. The sources do not say more about"
        " extra pay.",  # it cites: the claim points at a source
        "No, there is no extra pay for the Saturday shifts. The sources do not mention night"
        " shifts.",  # the admission is about something else
        "Saturday shifts in December are paid at 150%. The sources do not say anything about"
        " extra pay for Sundays.",  # not a yes or no
        "No, there is no extra pay for the Saturday shifts in December.",  # no admission
    ],
)
def test_an_answer_that_admits_something_else_stays_an_answer(answer: str) -> None:
    assert not admits_lacking(answer, QUESTION)
