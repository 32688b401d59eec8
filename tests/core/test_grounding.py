"""The rule-based grounding check on answers over the sample knowledge base, in both languages."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from adaptive_rag.core.grounding import check, without_feedback
from adaptive_rag.core.text import without_citations
from fake_sources import SAMPLE

WARRANTY = "policies/warranty.md"
RETURNS = "policies/returns.md"
COMPANY = "company.md"
HERON = "products/heron-hub.md"
K2 = "products/kestrel-k2.md"
TROUBLE = "support/troubleshooting.md"
SERVICE = "zh/售后服务.md"
FAQ = "zh/产品常见问题.md"


def source(path: str) -> str:
    """A document of the sample knowledge base, or one section of it ("path#Heading")."""
    path, _, heading = path.partition("#")
    text = (SAMPLE / path).read_text()
    if not heading:
        return text
    section = text.split(f"## {heading}\n", 1)[1]
    return section.split("\n## ", 1)[0]


@dataclass(frozen=True)
class Case:
    name: str
    question: str
    answer: str
    sources: tuple[str, ...]
    repaired: str | None  # None: the answer must come back unchanged
    statuses: tuple[str, ...]


CASES = [
    # The issue's example: a citation out of range and both standing before the claim.
    Case("issue example", "Heron hub 的保修期是多久？", "[2][3] Heron hub 的保修期是两年。",
         (HERON, SERVICE), "Heron hub 的保修期是两年[2]。", ("supported",)),
    # Supported answers pass unchanged.
    Case("supported warranty", "How long is the Kestrel warranty?",
         "Kestrel sensors have a three-year warranty from the date of delivery [1].",
         (WARRANTY,), None, ("supported",)),
    Case("supported two sentences", "What does the Heron hub cost?",
         "The standard Heron costs 189 EUR [1]. The Heron Pro costs 329 EUR and has a built-in LTE modem [1].",
         (HERON,), None, ("supported", "supported")),
    Case("supported founders", "Who founded Quillon Labs?",
         "Quillon Labs was founded in 2019 in Tromsø by Ingrid Solberg and Mateo Achterberg [1].",
         (COMPANY,), None, ("supported",)),
    Case("supported zh", "退货要收手续费吗？", "签收 31 天到 45 天之间退货的，收取 10% 的手续费[1]。",
         (SERVICE,), None, ("supported",)),
    Case("supported zh faq", "一个网关能连多少个传感器？",
         "一个 Heron 网关最多可以连接 64 个 Kestrel 传感器[1]。超过这个数量时，需要再增加一个网关[1]。",
         (FAQ,), None, ("supported", "supported")),
    # Paraphrases with the same facts pass.
    Case("paraphrase returns", "Can I return the K2 after 40 days?",
         "Yes, but a 10 % restocking fee applies to products you return 31 to 45 days after delivery [1].",
         (RETURNS,), None, ("supported",)),
    Case("paraphrase battery", "How long does the K2 battery last?",
         "At the default five-minute reporting interval the two AA lithium cells last about 14 months [1].",
         (K2,), None, ("supported",)),
    Case("paraphrase zh numbers", "K2 的电池能用多久？", "按默认每五分钟上报，K2 的电池大约能用 14 个月[1]。",
         (FAQ,), None, ("supported",)),
    Case("paraphrase zh percent", "退货手续费是多少？", "签收 31 到 45 天之间退货要收取百分之十的手续费[1]。",
         (SERVICE,), None, ("supported",)),
    # Wrong numbers and names are flagged, and the false citation goes.
    Case("wrong fee", "What is the restocking fee?",
         "The restocking fee is 15 % for products returned between 31 and 45 days after delivery [1].",
         (RETURNS,), "The restocking fee is 15 % for products returned between 31 and 45 days after delivery.",
         ("unsupported",)),
    Case("wrong year", "When was Quillon Labs founded?", "Quillon Labs was founded in 2018 in Tromsø, Norway [1].",
         (COMPANY,), "Quillon Labs was founded in 2018 in Tromsø, Norway.", ("unsupported",)),
    Case("wrong founder", "Who founded Quillon Labs?",
         "Quillon Labs was founded by Ingrid Solberg and Lars Berg [1].",
         (COMPANY,), "Quillon Labs was founded by Ingrid Solberg and Lars Berg.", ("unsupported",)),
    Case("wrong model", "What does the Heron cost?", "The Heron Max costs 329 EUR [1].",
         (HERON,), "The Heron Max costs 329 EUR.", ("unsupported",)),
    Case("wrong fee zh", "退货手续费是多少？", "签收 31 天到 45 天之间退货的，收取 15% 的手续费[1]。",
         (SERVICE,), "签收 31 天到 45 天之间退货的，收取 15% 的手续费。", ("unsupported",)),
    Case("wrong name zh", "网关能连多少传感器？", "一个 Heron 网关最多可以连接 64 个 Falcon 传感器[1]。",
         (FAQ,), "一个 Heron 网关最多可以连接 64 个 Falcon 传感器。", ("unsupported",)),
    # Uncited sentences get the source that supports them.
    Case("uncited", "What happens when the internet drops?",
         "The hub buffers up to 30 days of readings and uploads them when the connection returns.",
         (K2, HERON), "The hub buffers up to 30 days of readings and uploads them when the connection returns [2].",
         ("supported",)),
    Case("uncited second sentence", "How long is the warranty?",
         "Kestrel sensors have a three-year warranty [1]. Heron hubs have a two-year warranty.",
         (WARRANTY, HERON), "Kestrel sensors have a three-year warranty [1]. Heron hubs have a two-year warranty [1].",
         ("supported", "supported")),
    Case("uncited zh", "网关最多连接多少传感器？", "一个 Heron 网关最多可以连接 64 个 Kestrel 传感器。",
         (SERVICE, FAQ), "一个 Heron 网关最多可以连接 64 个 Kestrel 传感器[2]。", ("supported",)),
    # Citations to no listed source, or to the wrong source, are replaced or removed.
    Case("out of range replaced", "What does the Heron cost?", "The standard Heron costs 189 EUR [3].",
         (K2, HERON), "The standard Heron costs 189 EUR [2].", ("supported",)),
    Case("out of range dropped", "How long are refunds?",
         "Refunds are paid within 10 business days after the returned item arrives [1][4].",
         (RETURNS,), "Refunds are paid within 10 business days after the returned item arrives [1].",
         ("supported",)),
    Case("wrong source replaced", "How long are refunds?",
         "Refunds are paid to the original payment method within 10 business days [1].",
         (WARRANTY, RETURNS), "Refunds are paid to the original payment method within 10 business days [2].",
         ("supported",)),
    Case("unlisted only", "Who answers support requests?",
         "Support requests are answered within five business days [5].",
         (COMPANY,), "Support requests are answered within five business days.", ("unsupported",)),
    Case("uncited unsupported", "Is there a Kestrel K3?", "The Kestrel K3 ships in 2026.",
         (K2,), None, ("unsupported",)),
    # Citations standing before their sentence move after the claim.
    Case("citation before en", "How long is the Kestrel warranty?",
         "[1] Kestrel sensors have a three-year warranty.", (WARRANTY,),
         "Kestrel sensors have a three-year warranty [1].", ("supported",)),
    Case("citation before zh", "K2 的防护等级是多少？", "[1] K2 的外壳防护等级为 IP67。", (FAQ,),
         "K2 的外壳防护等级为 IP67[1]。", ("supported",)),
    # Quoted spans must stand in the source verbatim.
    Case("quote missing", "How do I pair a sensor?",
         'Hold the pairing button for five seconds, then press "Pair now" in the dashboard [1].',
         (TROUBLE,), 'Hold the pairing button for five seconds, then press "Pair now" in the dashboard.',
         ("unsupported",)),
    Case("quote present", "How do I pair a sensor?",
         'Hold the pairing button for five seconds, then press "Add sensor" in the dashboard [1].',
         (TROUBLE,), None, ("supported",)),
    Case("quote missing zh", "网关最多连接多少传感器？", "常见问题里写着「最多连接 128 个传感器」[1]。",
         (FAQ,), "常见问题里写着「最多连接 128 个传感器」。", ("unsupported",)),
    # Sentences with no content are skipped; a yes/no start does not count against the answer.
    Case("yes", "Is the K2 waterproof?", "Yes [1]. The housing is rated IP67 [1].", (K2,), None,
         ("no_content", "supported")),
    Case("shi de", "K2 可以在温室里用吗？", "是的。K2 的外壳防护等级为 IP67，可以承受温室里的喷淋[1]。", (FAQ,), None,
         ("no_content", "supported")),
    # Across languages, numbers and Latin names are compared.
    Case("zh answer en source", "Kestrel 传感器的保修期是多久？", "Kestrel 传感器享有三年保修[1]。", (WARRANTY,),
         None, ("supported",)),
    Case("zh answer en source wrong", "Kestrel 传感器的保修期是多久？", "Kestrel 传感器享有五年保修[1]。",
         (WARRANTY,), "Kestrel 传感器享有五年保修。", ("unsupported",)),
    Case("en answer zh source", "How long is the Heron warranty in China?",
         "In mainland China the Heron has a two-year warranty [1].", (SERVICE,), None, ("supported",)),
    Case("nothing comparable", "保修包括电池吗？", "保修不包括电池[1]。", (WARRANTY,), None, ("unchecked",)),
    # The question's own name, found, says what the sentence is about, not that it is so.
    Case("only the question's name", "Kestrel K2 支持蓝牙吗？", "是的，Kestrel K2 支持蓝牙[1]。", (K2,), None,
         ("unchecked",)),
    # Claims made of words the source does not hold are flagged, even with no name or number.
    Case("made-up use", "Can I clean Kestrel sensors?", "Kestrel sensors can be washed in a dishwasher [1].",
         (WARRANTY,), "Kestrel sensors can be washed in a dishwasher.", ("unsupported",)),
    Case("made-up feature", "What does the Heron hub do offline?",
         "The Heron hub keeps every reading in the cloud forever [1].", (f"{HERON}#Offline buffering",),
         "The Heron hub keeps every reading in the cloud forever.", ("unsupported",)),
    Case("made-up use zh", "K2 可以在温室里使用吗？", "K2 可以放进洗碗机清洗[1]。", (FAQ,),
         "K2 可以放进洗碗机清洗。", ("unsupported",)),
    Case("made-up feature zh", "Heron 网关有什么功能？", "Heron 网关支持蓝牙连接手机[1]。", (FAQ,),
         "Heron 网关支持蓝牙连接手机。", ("unsupported",)),
    Case("loose paraphrase", "Can I return an unused sensor?",
         "You can send unused items back within 45 days and get a full refund [1].", (RETURNS,), None,
         ("supported",)),
    Case("loose paraphrase zh", "坏了怎么修？", "需要维修时可以打售后热线 400-820-4677，一般 7 个工作日内修好[1]。",
         (SERVICE,), None, ("supported",)),
    # Sources together: each cited source gives part of the sentence.
    Case("two sources together", "What do the K2 and the Heron cost?",
         "The K2 costs 249 EUR and the standard Heron costs 189 EUR [1][2].", (K2, HERON), None,
         ("supported",)),
    # Listed sources together: one is cited, the other gives the rest; both are cited after.
    Case("two sources, one cited", "What do the K2 and the Heron cost?",
         "The K2 costs 249 EUR and the standard Heron costs 189 EUR [1].", (K2, HERON),
         "The K2 costs 249 EUR and the standard Heron costs 189 EUR [1][2].", ("supported",)),
    Case("two sources, none cited", "What do the K2 and the Heron cost?",
         "The K2 costs 249 EUR and the standard Heron costs 189 EUR.", (K2, HERON),
         "The K2 costs 249 EUR and the standard Heron costs 189 EUR [1][2].", ("supported",)),
    Case("two sources, a third not needed", "What do the K2 and the Heron cost?",
         "The K2 costs 249 EUR and the standard Heron costs 189 EUR [3].", (K2, RETURNS, HERON),
         "The K2 costs 249 EUR and the standard Heron costs 189 EUR [3][1].", ("supported",)),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_answers_over_the_sample_knowledge_base(case: Case) -> None:
    result = check(case.answer, [source(p) for p in case.sources], case.question)
    assert result.answer == (case.repaired or case.answer)
    assert tuple(s.status for s in result.sentences) == case.statuses
    assert result.grounded == ("unsupported" not in case.statuses)
    assert result.changed == (case.repaired is not None)
    # repairs touch citations only
    assert without_citations(result.answer).replace(" ", "") == without_citations(
        case.answer
    ).replace(" ", "")


def test_the_issue_example_in_detail() -> None:
    result = check(
        "[2][3] Heron hub 的保修期是两年。",
        [source(HERON), source(SERVICE)],
        "Heron hub 的保修期是多久？",
    )
    (sentence,) = result.sentences
    assert sentence.cited == (2, 3) and sentence.cites == (2,) and sentence.supporting == (2,)
    assert result.grounded and result.score == 1.0


def test_messages_say_what_is_wrong() -> None:
    wrong = check(
        "The restocking fee is 15 % [1].", [source(RETURNS)], "What is the restocking fee?"
    )
    assert wrong.feedback == "no support in [1] for 'The restocking fee is 15 %' (not found: 15 %)"
    assert wrong.unsupported[0].missing.numbers == {"15 %"}
    unlisted = check(
        "Support requests are answered within five business days [5].", [source(COMPANY)]
    )
    assert unlisted.feedback.endswith("cites [5], which is not a listed source (not found: 5 day)")
    uncited = check("The Kestrel K3 ships in 2026.", [source(K2)])
    assert uncited.feedback.startswith("'The Kestrel K3 ships in 2026' cites no source")


def test_question_names_are_free_to_repeat() -> None:
    battery = source(f"{K2}#Battery and radio")  # this section never says "Kestrel"
    answer = "The Kestrel K2 batteries last about 14 months at the default interval [1]."
    assert check(answer, [battery], "How long does the Kestrel K2 battery last?").grounded
    assert not check(answer, [battery]).grounded


def test_score_is_the_share_of_content_sentences_supported() -> None:
    result = check(
        "Yes. Kestrel sensors have a three-year warranty [1]. Heron hubs have a five-year warranty [1].",
        [source(WARRANTY)],
    )
    assert [s.status for s in result.sentences] == ["no_content", "supported", "unsupported"]
    assert result.score == 0.5 and not result.grounded
    assert check("", [source(WARRANTY)]).score == 1.0


def test_line_breaks_and_lists_stay() -> None:
    answer = "The LED codes:\n\n- Slow green blink: normal operation [2].\n- Solid red: no hub in reach [9].\n"
    result = check(answer, [source(HERON), source(TROUBLE)], "What do the K2 LED codes mean?")
    assert result.answer == (
        "The LED codes:\n\n- Slow green blink: normal operation [2].\n- Solid red: no hub in reach [2].\n"
    )


def test_numbered_lists_are_not_numbers_to_check() -> None:
    answer = (
        "To pair a sensor:\n1. Hold the pairing button for five seconds [1].\n"
        '2) Press "Add sensor" in the dashboard within two minutes [1].\n'
    )
    result = check(answer, [source(TROUBLE)], "How do I pair a sensor?")
    assert [s.status for s in result.sentences] == ["no_content", "supported", "supported"]
    assert result.answer == answer


def test_a_paraphrase_of_one_word_is_not_flagged() -> None:
    from adaptive_rag.core.grounding import check as ground

    source = "Zephyr X2\nThe Zephyr X2 kettle has a 1.7 litre capacity and boils in 3 minutes."
    question = "Is the Zephyr X2 kettle 1.7 litres?"
    restated = ground("Yes, the Zephyr X2 holds 1.7 litres [1].", [source], question)
    assert restated.grounded and restated.sentences[0].status != "unsupported"
    meta = ground("It boils in 3 minutes [1]. This information is found in source.", [source])
    assert meta.grounded
    wrong = ground("It boils in 5 minutes [1].", [source], question)
    assert not wrong.grounded


def test_a_sentence_that_restates_the_question_is_judged_by_its_new_facts() -> None:
    from adaptive_rag.core.grounding import check as ground

    source = "Jacksonville\nThe city consolidated with Duval County in 1968."
    question = "What year did consolidation cause Jacksonville to become part of Duval County?"
    right = ground(
        "Consolidation caused Jacksonville to become part of Duval County in 1968.",
        [source],
        question,
    )
    assert right.grounded and right.sentences[0].status == "supported"
    wrong = ground(
        "Consolidation caused Jacksonville to become part of Duval County in 1971.",
        [source],
        question,
    )
    assert not wrong.grounded
    echo = ground("Jacksonville became part of Duval County.", [source], question)
    assert echo.grounded


def test_without_feedback_drops_only_the_lines_that_repeat_the_checks_words() -> None:
    echoed = "No support in for 'It costs 15 %' (not found: 15 %)\nThe fee is 10 % [1]."
    assert without_feedback(echoed) == "The fee is 10 % [1]."
    unlisted = "'It is 15 %' cites [5][6], which are not listed\nThe fee is 10 % [1]."
    assert without_feedback(unlisted) == "The fee is 10 % [1]."
    plain = "The restocking fee is 10 % [1].\nIt applies after 30 days [1]."
    assert without_feedback(plain) == plain


def test_only_the_supported_sentences_are_kept_when_asked() -> None:
    from adaptive_rag.core.grounding import supported_only

    source = ["The most a hotel may cost per night in Paris is €220."]
    answer = (
        "The most a hotel may cost per night in Paris is €220 [1]. "
        'This can be found in the source under the section "Hotels". It is near the Louvre.'
    )
    question = "What is the most a hotel may cost per night in Paris?"
    assert supported_only(answer, source, question) == (
        "The most a hotel may cost per night in Paris is €220 [1]."
    )
    assert supported_only("It is near the Louvre [1].", source, question) == ""
