"""Whose thing a question asks about: the knowledge base's own, or the world's (core.question.owned)."""

from __future__ import annotations

import pytest
from adaptive_rag.core.question import Searched, owned_by, speaks_of_own

FOUND = [
    Searched("Kestrel K2 sensor", "The K2 reports every 15 minutes.", kept=False),
    Searched("Returns", "Unused products may be returned within 45 days.", kept=True),
    Searched("中国区售后服务 > 退货", "未使用的产品在签收后 45 天内可以退货。", kept=True),
    Searched("Working hours", "Overtime is logged in Atlas, the HR system.", kept=True),
    Searched("France", "France borders Spain and Germany.", kept=True),
]


@pytest.mark.parametrize(
    ("question", "why"),
    [
        ("Can customers on a payment plan get a discount on the K2?", "'K2'"),  # a page's title
        ("What is the restocking fee for returns?", "'return'"),  # a kept page's title word
        ("退货需要支付运费吗？", "'退货'"),  # a section heading
        ("Is there an Atlas app for Android?", "'Atlas'"),  # held, and seldom in general text
        ("How many vacation days do employees get?", "employees"),
        ("What is the guest Wi-Fi password at the office?", "the office"),
        ("公司有没有年终奖？", "公司"),
        ("我们的退货要运费吗？", "我们"),
        ("Based on an article from The Verge, what did CNET say of the deal?", "article"),
        ("这篇报道提到了哪些产品？", "这篇"),
    ],
)
def test_a_question_about_the_knowledge_bases_own_things(question: str, why: str) -> None:
    owned = owned_by(question, FOUND)
    assert owned and why in owned.why()


@pytest.mark.parametrize(
    "question",
    [
        "What is the capital of Canada?",
        "Who painted the Mona Lisa?",
        "What is a heat pump?",
        "What is an Atlas?",  # asks a definition: held names do not make it the documents' own
        "什么是集装箱？",
        "How many bones are in the human body?",
        "What is the Brundtland report?",
        "What is the source of the Nile?",
        "What is a definite article?",
        "What rights are in Article 5?",
        "新闻报道的五要素是什么？",
    ],
)
def test_a_question_about_the_world_is_not(question: str) -> None:
    assert not owned_by(question, FOUND)


def test_a_common_name_in_a_document_found_is_not_the_knowledge_bases_own() -> None:
    # France stands in a kept page's title, but only a title makes a common name the KB's own
    owned = owned_by("What is the capital of France?", FOUND)
    assert owned.titled == ("France",) and not owned.held
    assert not owned_by("Is Spain bigger than Portugal?", FOUND)  # held in text, but common


def test_a_common_chinese_name_ties_to_a_page_only_as_the_question_names_it() -> None:
    # 中国区售后服务 is a page about after-sales service in China, not about China
    assert not owned_by("中国最长的河流是什么？", FOUND, "zh")
    depot = [Searched("苏州配送中心员工规定", "早班 7:00 开始。", kept=False)]
    assert owned_by("苏州配送中心有上下班班车吗？", depot, "zh").titled == ("苏州",)
    assert not owned_by("苏州的天气怎么样？", depot, "zh")
    hr = [Searched("美国人力资源部规定 > 假期", "每年 20 天年假。", kept=False)]
    assert not owned_by("美国人口有多少？", hr, "zh")  # 美国人 is no word of the question's
    assert owned_by("美国有多少天年假？", [Searched("美国 > 假期", "", kept=False)], "zh")
    assert owned_by("在苏州配送中心工作要培训吗？", depot, "zh").titled == ("苏州",)
    assert owned_by("Kestrel K2 的电池能用多久？", FOUND, "zh").titled == ("Kestrel K2",)


def test_asking_what_applies_to_the_asker_is_owned_when_a_source_on_it_was_kept() -> None:
    kept = [Searched("Returns", "Unused products may be returned within 45 days.", kept=True)]
    doubted = [Searched("Returns", "Unused products may be returned within 45 days.", kept=False)]
    for question in (
        "Can I change the delivery address after I have placed an order?",
        "Do we get a bonus at the end of the year?",
        "请问我可以退货吗？",
    ):
        assert owned_by(question, kept).applies and not owned_by(question, doubted)
    for question in ("How can I convert Celsius to Fahrenheit?", "Why do we get hiccups?"):
        assert not owned_by(question, kept)  # the form asks, not what the asker may do


def test_a_title_word_counts_only_from_a_kept_document() -> None:
    doubted = [Searched("Returns", "Unused products may be returned.", kept=False)]
    assert not owned_by("What is the restocking fee for returns?", doubted)


def test_words_of_the_asker_and_their_organisation() -> None:
    assert speaks_of_own("Can I bring my dog to the office?") == ("my", "the office")
    assert speaks_of_own("Who runs HR?") == ("hr",)
    assert speaks_of_own("How many hours per week?") == ()
    assert speaks_of_own("员工可以带宠物来办公室吗？") == ("员工",)


def test_a_headline_is_not_a_page_name() -> None:
    headline = Searched(
        "Jaguars vs. Saints: the game that decided the season", "The Saints lost.", kept=True
    )
    assert not owned_by("What does RAM stand for in a game console?", [headline])
    assert owned_by("Who won the Saints game?", [headline]).titled == ("Saints",)  # a name still


def test_a_chinese_name_outside_jiebas_dictionary_held_by_a_document_is_owned() -> None:
    text = "杭州仓储中心的设备维修由维修组负责，负责人为周敏。"
    assert owned_by("周敏的维修组有几个人？", [Searched("售后", text, kept=True)], "zh").held
    assert not owned_by(
        "周敏的维修组有几个人？", [Searched("售后", "维修组负责设备。", True)], "zh"
    )


def test_a_common_chinese_name_is_read_with_the_word_before_or_after_it() -> None:
    from adaptive_rag.core.question.owned import _named_with_more

    assert _named_with_more("苏州", ["江南", "苏州", "仓库"], " 江南苏州仓库 ")  # the word before
    assert _named_with_more("苏州", ["苏州", "仓库"], " 苏州仓库 > 安全 ")  # the word after
    assert _named_with_more("苏州", ["苏州", "天气"], " 城市 > 苏州 ")  # a heading that is the name
    assert not _named_with_more("苏州", ["苏州", "天气"], " 苏州仓库 ")


def test_what_a_term_means_is_owned_only_by_a_page_on_the_term_itself() -> None:
    it = [Searched("IT Security: Passwords, MFA, VPN and Devices > Beacon VPN", "", kept=True)]
    assert not owned_by("什么是 VPN？", it, "zh")  # a page that lists the term, and one on Beacon
    assert not owned_by("What is MFA?", it)
    assert owned_by("Does the VPN run on Linux?", it).titled == ("VPN",)  # not a definition
    warranty = [Searched("Warranty > What is covered", "Two years.", kept=True)]
    assert owned_by("What is a warranty?", warranty).titled == ("warranty",)
    care = [Searched("Warranty > Norhaven Care", "Two more years for €89.", kept=True)]
    assert owned_by("What is Norhaven Care?", care).titled == ("Norhaven Care",)
    assert owned_by("什么是退货？", FOUND, "zh").titled == ("退货",)
    printer = [
        Searched("Kestrel K2 > Specs", "", kept=True),
        Searched("手册 > 加班与加班费", "", True),
    ]
    assert owned_by("What is K2?", printer).titled == ("K2",)  # a name in a longer title, as ever
    assert owned_by("加班费是什么？", printer, "zh").titled == ("加班费",)
    assert owned_by("什么是叉车？", [Searched("仓库 > 叉车安全", "", kept=True)], "zh")


def test_a_chinese_question_of_what_may_be_done_with_the_asker_unsaid() -> None:
    kept = [Searched("苏州配送中心员工规定 > 安全规定", "全区禁止吸烟。", kept=True)]
    for question in ("仓库里可以吃东西吗？", "可以带家属参加年会吗？", "办公室里能不能吃东西？"):
        assert owned_by(question, kept, "zh").applies
        assert not owned_by(question, [Searched("安全规定", "全区禁止吸烟。", kept=False)], "zh")
    for question in ("水可以导电吗？", "孕妇可以吃螃蟹吗？", "猫能吃巧克力吗？", "需要多少钱？"):
        assert not owned_by(question, kept, "zh").applies  # what a thing or someone else may do
    for question in ("晚上可以喝咖啡吗？", "感冒时需要吃抗生素吗？", "飞机上可以用手机吗？"):
        assert not owned_by(question, kept, "zh").applies  # anyone, at a time or in a state


def test_a_term_of_several_words_ties_to_a_heading_that_is_the_whole_term() -> None:
    leave = [Searched("Leave and Public Holidays > Vacation carryover", "", kept=True)]
    assert owned_by("What is vacation carryover?", leave).titled == ("vacation carryover",)
    assert not owned_by("What is a vacation home?", leave)
