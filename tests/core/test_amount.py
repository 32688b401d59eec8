"""An answer to how much, how many or how long must state an amount (core.grounding.amount)."""

from __future__ import annotations

import pytest
from adaptive_rag.core.grounding import unmeasured
from adaptive_rag.core.question import asks_amount


@pytest.mark.parametrize(
    "question",
    [
        "How much does the Falcon F4 weigh?",
        "How many vacation days do employees get?",
        "How long is the warranty?",
        "How loud is the K2 printer?",
        "K2 打印机工作时的噪音有多大？",
        "产假有多久？",
        "年假有几天？",
        "退货手续费是多少？",
        "几点上班？",
    ],
)
def test_questions_that_ask_for_an_amount(question: str) -> None:
    assert asks_amount(question)


@pytest.mark.parametrize(
    "question",
    [
        "How often are backups run?",  # answered "daily"
        "How do I reset my password?",
        "哪几种颜色可以选？",  # which ones: names
        "这款水壶几乎不漏水吗？",  # 几乎: almost
        "公司有几种假期？",  # which kinds
        "What is the K2?",
    ],
)
def test_questions_that_do_not(question: str) -> None:
    assert not asks_amount(question)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("K2 打印机工作时的噪音有多大？", "K2 打印机工作时噪音较大[1]。"),
        ("How much does the Falcon F4 weigh?", "The Falcon F4 is light and easy to carry [1]."),
        ("How long does shipping take?", "Shipping is fast [1]."),
    ],
)
def test_an_answer_with_no_amount_is_unmeasured(question: str, answer: str) -> None:
    assert unmeasured(question, answer)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("How long is the warranty?", "Two years from delivery [1]."),
        ("How long is the warranty?", "The warranty lasts 24 months [1]."),
        ("年假有几天？", "员工每年有十五天年假[1]。"),
        ("产假有多久？", "产假为98天[1]。"),
        ("几点上班？", "早上九点上班[1]。"),
        ("How much is the restocking fee?", "There is no restocking fee [1]."),
        ("How much does the app cost?", "The app is free [1]."),
        ("How many vacation days do we get?", "A week a year [1]."),
        ("How long is the probation?", "半年[1]。"),
        ("What is the K2?", "A label printer [1]."),  # not an amount question
        ("How long is the warranty?", ""),  # nothing written: not this rule's to read
    ],
)
def test_an_amount_in_digits_or_words_or_another_question_is_not(
    question: str, answer: str
) -> None:
    assert not unmeasured(question, answer)


def test_a_rating_or_code_the_question_does_not_hold_is_an_amount() -> None:
    assert not unmeasured(
        "Kestrel K2 的外壳防护等级是多少？", "Kestrel K2 的外壳防护等级是IP65[1]。"
    )
    assert unmeasured(
        "K2 打印机工作时的噪音有多大？", "K2标签打印机工作时的噪音较大[1]。"
    )  # K2: asked
