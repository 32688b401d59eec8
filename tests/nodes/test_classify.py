"""The rule fast path, in English and Chinese, and reading the model's one-word verdict."""

from __future__ import annotations

import pytest
from adaptive_rag.nodes.classify import classify_by_rules, names_an_entity, parse_category


@pytest.mark.parametrize(
    ("question", "history", "expected"),
    [
        ("Hello!", False, "general"),
        ("你好", False, "general"),
        ("谢谢！", True, "general"),
        ("What is 12 * 7?", False, "general"),
        ("(3+4)*2", True, "general"),
        ("What is 15% of 80?", False, "general"),
        ("What is the square root of 144?", False, "general"),
        ("25 乘以 36 等于多少？", False, "general"),
        ("81 的平方根是多少？", True, "general"),
        ("Thanks a lot!", True, "general"),  # a pleasantry in a thread is not a follow-up
        ("Sorry, I made a typo.", True, "general"),
        ("Have a great weekend!", False, "general"),
        ("How are you?", False, "general"),
        ("你好，你能做什么？", False, "general"),  # a question to the assistant about itself
        ("Good morning! How is your day going?", False, "general"),
        ("Who are you?", False, "general"),
        ("Hi, how are you?", False, "general"),
        ("Thanks for your help!", False, "general"),  # help as a noun bids nothing
        ("谢谢你的帮助！", False, "general"),
        ("辛苦了，今天就到这里吧。", False, "general"),  # a closing, not a question about today
        ("好的，明白了。", True, "general"),
        ("Translate 'warranty' into French", False, "general"),
        ("翻译一下这句话", False, "general"),
        ("What is the latest news about Zephyr?", False, "realtime"),
        ("What's the weather in Berlin today?", False, "realtime"),
        ("今天的天气怎么样？", False, "realtime"),
        ("实时汇率是多少", False, "realtime"),
        ("Compare the Zephyr kettle and the Aurora lamp", False, "complex"),
        ("What are the differences between plan A and plan B?", False, "complex"),
        ("Who founded it? And when?", False, "complex"),
        ("比较一下两款产品的优缺点", False, "complex"),
        ("A和B有什么区别？", False, "complex"),
        ("What about the other one?", True, "follow_up"),
        ("How long does it take to boil?", True, "follow_up"),
        ("它的保修期是多久？", True, "follow_up"),
        ("那退货呢？", True, "follow_up"),
        ("Why?", True, "follow_up"),
        (
            "Are Carnic Alps and Torre Del Gran San Pietro located in the same country?",
            False,
            "complex",
        ),
        ("Who died later, George Cressman or Herbert Douglas Anthony?", False, "complex"),
        ("Which film came out first, Heat or Ronin?", False, "complex"),
    ],
)
def test_rules_are_sure_of_clear_cases(question: str, history: bool, expected: str) -> None:
    ruled = classify_by_rules(question, history)
    assert ruled is not None and ruled[0] == expected


@pytest.mark.parametrize(
    "question",
    [
        "How long is the warranty on the Zephyr X2 kettle?",
        "Who wrote the employee handbook's travel policy?",
        "Zephyr X2 保修期是多久？",
        # a pleasantry that goes on to ask or bid is a question
        "Thanks, and how do I reset the kettle?",
        "Sorry, what is the return window?",
        "Hi, tell me about the warranty",
        "What can you do with the Zephyr X2 kettle?",  # about a thing, not the assistant
        "你能做什么饭？",
        "Can you help me reset my password?",
        "帮我查一下退货政策",
        "What is your return policy?",
        "Hi! How are returns handled?",
        "谢谢，那退货政策怎么样",
        "Nice is a city in France.",
        "What is 3?",  # a number alone is not a sum
        "How long does it take to boil?",  # no history: not a follow-up, left to the model
        "Did the Sporting News article say the Bears won?",  # a publisher, not the news
        "Did the USA Today article report a loss?",  # a publisher, not the day
        # words that often ask about the present, left to the knowledge base's probe
        "Which company is accused of harming news publishers' revenues?",
        "What was the name of Chris Hammer's latest book?",
        "徐晓飞现在效力于哪个球队？",
        "这种云杉目前野外仅存多少株？",
        "Which bookmakers return stakes in weather-affected events?",
        "最新的汇率是多少",
    ],
)
def test_rules_leave_doubtful_cases_to_the_model(question: str) -> None:
    assert classify_by_rules(question, has_history=False) is None


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("simple", "simple"),
        ("Complex.", "complex"),
        ("The answer is: general", "general"),
        ("real-time", "realtime"),
        ("I think it needs retrieval", None),
        ("", None),
    ],
)
def test_parse_category(reply: str, expected: str | None) -> None:
    assert parse_category(reply) == expected


def test_follow_up_rules_are_off_once_the_question_was_rewritten() -> None:
    assert classify_by_rules("and it?", has_history=True, follow_up=False) is None
    assert (
        classify_by_rules("What about the other one?", has_history=False, follow_up=False) is None
    )
    assert classify_by_rules("What is the latest news?", True, follow_up=False) == (
        "realtime",
        "asks about something that changes daily",
    )


@pytest.mark.parametrize(
    ("question", "specific"),
    [
        ("Who is the paternal grandfather of Princess Yasmin Aga Khan?", True),
        ("What happened in 2006 in Montreal?", True),
        ("Who wrote 'The Raven'?", True),
        ("《战国无双3》是由哪两个公司合作开发的？", True),
        ("Kestrel K2 的外壳防护等级是多少？", True),
        ("What is photosynthesis?", False),
        ("五羊新城又称什么？", True),
        ("How do rainbows form?", False),
        ("Why is the sky blue? Explain briefly.", False),
    ],
)
def test_names_an_entity(question: str, specific: bool) -> None:
    assert names_an_entity(question) is specific


def test_a_general_verdict_on_a_specific_name_retrieves(make_harness) -> None:  # type: ignore[no-untyped-def]
    h = make_harness(classify="general")
    out = h.ask("How much water does the Zephyr X2 kettle hold?")
    assert out["route"]["category"] == "simple" and out["diagnostics"]["retrievals"] == 1
    plain = h.ask("What is photosynthesis?")
    assert plain["route"]["category"] == "general"
    long = h.ask("What do tumors express that are also found on normal cells?")
    assert long["route"]["category"] == "simple"
    zh = h.ask("战国史模式主打哪两个模式？")  # no spaces, but far longer than eight words
    assert zh["route"]["category"] == "simple"
    assert h.ask("五羊新城又称什么？")["route"]["category"] == "simple"  # a name, no capitals
    assert h.ask("你好")["route"]["category"] == "general"  # the rule fast path still answers
