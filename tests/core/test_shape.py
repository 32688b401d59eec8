"""Question shapes: nested references go hop by hop, independent parts in parallel."""

from __future__ import annotations

import pytest
from adaptive_rag.core.grounding import consistent_yes_no, without_stray_yes_no
from adaptive_rag.core.question import asks_yes_no, has_parts, nested_reference


@pytest.mark.parametrize(
    "question",
    [
        "Where was the inventor of the telephone born?",
        "When did the director of Titanic win an Oscar?",
        "What year was the company that acquired Instagram founded?",
        "Who is the paternal grandfather of Princess Yasmin Aga Khan?",
        "Who married the wife of the founder of Acme?",
        "What is Acme's founder's birthplace?",
        "发明电话的人出生在哪里？",
        "泰坦尼克号的导演的妻子是谁？",
        "澜川科技的创始人是哪国人？",
    ],
)
def test_a_nested_reference_is_seen(question: str) -> None:
    assert nested_reference(question)


@pytest.mark.parametrize(
    "question",
    [
        "What is the capital of France?",
        "Who is the founder of Microsoft?",
        "Which company acquired Instagram?",
        "What is the IP rating of the Kestrel K2?",
        "微软的创始人是谁？",
        "Kestrel K2 的外壳防护等级是多少？",
        "How do rainbows form?",
        "世界上面积最大的国家是哪个？",
        "赢得2018年世界杯的球队是哪一个？",
    ],
)
def test_a_one_hop_question_is_not_nested(question: str) -> None:
    assert not nested_reference(question)


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        ("Compare the Zephyr X2 and the Aurora lamp.", True),
        ("Which was released first, Alien or Aliens?", True),
        ("比较两款产品的区别", True),
        ("Where was the inventor of the telephone born?", False),
    ],
)
def test_independent_parts(question: str, parts: bool) -> None:
    assert has_parts(question) is parts


@pytest.mark.parametrize(
    ("question", "yes_no"),
    [
        ("Did the Verge report the merger before TechCrunch did?", True),
        ("Is the Kestrel K2 waterproof?", True),
        ("Doesn't the warranty cover the battery?", True),
        ("After the Fortune report on the trial, was the verdict appealed?", True),
        ("Kestrel K2 防水吗？", True),
        ("保修是否包括电池？", True),
        ("Which company is featured in both The Verge and TechCrunch?", False),
        ("Who was born first, Ada or Bo?", False),
        ("How long does the battery last?", False),
        ("What is the island known as?", False),
        ("Kestrel K2 的外壳防护等级是多少？", False),
        (
            "Who is the engineer that designed the bridge, was later knighted, and ran a firm?",
            False,
        ),
        ("Which team, featured in two reports, has won more games this season?", False),
        ("你知道这款水壶是谁发明的吗？", False),
        ("这款水壶几乎不漏水吗？", True),
        ("哪怕下雨也能用吗？", True),
        ("哪款水壶最省电？", False),
    ],
)
def test_yes_no_questions_are_told_by_an_opening_auxiliary_or_a_chinese_particle(
    question: str, yes_no: bool
) -> None:
    assert asks_yes_no(question) is yes_no


@pytest.mark.parametrize(
    ("question", "answer", "kept"),
    [
        ("Which company makes the Kindle?", "Yes, Amazon makes it [1].", "Amazon makes it [1]."),
        ("Compare the two warranties.", "No. The hub has two years.", "The hub has two years."),
        ("最后马会采取了什么措施？", "是的，马会礼聘了总经理。", "马会礼聘了总经理。"),
        (
            "Is the Kestrel K2 waterproof?",
            "Yes, it is rated IP67 [1].",
            "Yes, it is rated IP67 [1].",
        ),
        ("Kestrel K2 防水吗？", "是的，防护等级为 IP67。", "是的，防护等级为 IP67。"),
        ("这款水壶几乎不漏水吗？", "是的，它防水。", "是的，它防水。"),
        ("Which sources say so?", "No information is given.", "No information is given."),
        ("Which company makes the Kindle?", "Yes.", "Yes."),
    ],
)
def test_a_yes_or_no_opening_an_answer_to_a_question_asking_none_is_dropped(
    question: str, answer: str, kept: str
) -> None:
    assert without_stray_yes_no(answer, question) == kept


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        ("Compare the Zephyr X2 kettle and the Aurora lamp", ["Zephyr X2 kettle", "Aurora lamp"]),
        (
            "Compare the warranty of the Kestrel sensors and the Heron hub.",
            ["warranty of the Kestrel sensors", "warranty of Heron hub"],
        ),
        ("What are the differences between TCP and UDP?", ["TCP", "UDP"]),
        (
            "Which was released first, Windows 95 or Mac OS 8?",
            ["Windows 95 Which was released first", "Mac OS 8 Which was released first"],
        ),
        ("比较Kestrel K2和Heron hub的保修期", ["Kestrel K2 的保修期", "Heron hub 的保修期"]),
        ("What is the capital of France?", []),
        ("Where was the inventor of the Zephyr kettle born?", []),
    ],
)
def test_a_comparison_splits_into_the_things_it_names(question: str, parts: list[str]) -> None:
    from adaptive_rag.core.question import split_parts

    assert split_parts(question) == parts


@pytest.mark.parametrize(
    ("question", "answer", "written"),
    [
        (
            "Was there a change in the club's ranking between the two reports?",
            "Yes, there was no change in the ranking [1].",
            "No, there was no change in the ranking [1].",
        ),
        (
            "Did the Sporting News report on the friendly before The Roar did?",
            "Yes, the Sporting News did not report on it [2].",
            "No, the Sporting News did not report on it [2].",
        ),
        ("Kestrel K2 防水吗？", "是的，它没有防水等级 [1]。", "不是，它没有防水等级 [1]。"),
        # consistent answers, or a negation outside the main clause, are left as written
        ("Is the Kestrel K2 waterproof?", "Yes, it is rated IP67 [1].", None),
        ("Was there no change in the ranking?", "Yes, there was no change [1].", None),
        (
            "Does the article claim that he led the team?",
            "Yes, it claims that he did not only lead it but built it [1].",
            None,
        ),
        ("Did both articles report it?", "Yes, both report that he could not play [1].", None),
        ("Is it consistent?", "Yes, there is no doubt it is consistent [1].", None),
        ("Is it consistent?", "No, it is not consistent [1].", None),
        ("What is the fee?", "Yes, there is no fee [1].", None),
    ],
)
def test_an_opening_yes_its_own_clause_negates_becomes_no(
    question: str, answer: str, written: str | None
) -> None:
    assert consistent_yes_no(answer, question) == (written or answer)


def test_a_definition_question_names_the_term_it_asks_about() -> None:
    from adaptive_rag.core.question import defined_term

    assert defined_term("What is a forklift?") == "forklift"
    assert defined_term("What does RFID stand for?") == "RFID"
    assert defined_term("什么是叉车？") == "叉车"
    assert defined_term("VPN是什么意思？") == "VPN"
    assert defined_term("Define a pallet.") == "pallet"
    for question in ("叶乔波的籍贯是什么？", "What is our VPN called?", "How big is it?"):
        assert defined_term(question) == "", question
