"""Questions about the knowledge base's own things: answered from its documents, or declined.

Never from general knowledge, and never with a yes or a no its sources do not hold (core.question.owned,
core.grounding.focus); the world's questions keep their general-knowledge answers.
"""

from __future__ import annotations

import re
from typing import Any

from adaptive_rag import Context, Services, build_graph
from adaptive_rag.prompts import answer_general as general_prompts
from fake_sources import KeywordRetriever, Titled
from fakes import ScriptedChatModel, ScriptedJudge
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever


def test_an_owned_question_the_documents_do_not_answer_is_never_answered_generally(
    make_harness: Any,
) -> None:
    h = make_harness(
        rag="No, customers on a payment plan cannot get a discount on the Zephyr X2 [1].",
        direct="No, customers on a payment plan cannot get a discount.",
    )
    out = h.ask("Can customers on a payment plan get a discount on the Zephyr X2?", max_rewrites=0)
    assert out["answerable"] is False and out["decline"]["reason"] == "not_in_sources"
    assert "discount" in out["decline"]["detail"]  # what the sources lack, said
    assert "direct" not in h.model.roles()  # the model's own knowledge never asked
    general = [j for j in out["diagnostics"]["judgments"] if j["node"] == "answer_general"]
    assert [j["verdict"] for j in general] == ["owned"] and "Zephyr X2" in general[0]["detail"]


def test_a_yes_that_restates_the_question_needs_its_focus_in_the_sources(
    make_harness: Any,
) -> None:
    h = make_harness(rag="Yes, returns require paying for shipping [1].")
    out = h.ask("Do returns require paying for shipping?", max_rewrites=0)
    assert out["answerable"] is False and out["decline"]["reason"] == "not_in_sources"
    assert "shipping" in out["decline"]["detail"] and "direct" not in h.model.roles()
    assert out["verified"] is False


def test_a_yes_its_sources_hold_stands(make_harness: Any) -> None:
    h = make_harness(rag="Yes, returns are accepted within 30 days of purchase [1].")
    out = h.ask("Are returns accepted within 30 days of purchase?")
    assert out["answerable"] is True and out["verified"] is True
    assert out["answer"].startswith("Yes, returns are accepted within 30 days")


def test_a_plain_question_about_the_askers_organisation_is_declined_not_guessed(
    make_harness: Any,
) -> None:
    h = make_harness(relevance=ScriptedJudge([0.0]), direct="Employees usually get 25 days.")
    out = h.ask("How many vacation days do employees get?", max_rewrites=0)
    assert out["answerable"] is False and out["decline"]["reason"] == "no_relevant_documents"
    assert "direct" not in h.model.roles() and "25" not in out["answer"]
    assert out["route"]["category"] != "general"


def test_a_definition_the_documents_do_not_hold_is_answered_from_general_knowledge(
    make_harness: Any,
) -> None:
    h = make_harness(relevance=ScriptedJudge([0.0]), direct="A heat pump moves heat indoors.")
    out = h.ask("What is a heat pump?")
    assert out["answerable"] is True and out["answer"].startswith("A heat pump moves heat")
    assert out["notices"] == [general_prompts.LABEL["en"]]
    assert out["diagnostics"]["steps"][-2:] == ["answer_general", "finalize"]
    general = [j for j in out["diagnostics"]["judgments"] if j["node"] == "answer_general"]
    assert general[0]["method"] == "rule" and "general text uses often" in general[0]["detail"]


def test_a_general_question_with_no_likely_source_asks_the_model_before_any_second_search(
    make_harness: Any,
) -> None:
    h = make_harness(relevance=ScriptedJudge([0.0]), direct="Leonardo da Vinci painted it.")
    out = h.ask("Who painted the Mona Lisa?")
    assert out["answer"].startswith("Leonardo da Vinci") and out["route"]["category"] == "general"
    assert out["diagnostics"]["retrievals"] == 1  # classify's probe only
    assert "classify" not in h.model.roles()  # nor the router's call


def test_an_owned_answer_keeps_its_supported_claim_and_loses_what_no_source_says(
    make_harness: Any,
) -> None:
    h = make_harness(
        rag="The Zephyr X2 kettle holds 1.7 litres [1]. It is made in Mars Colony [1].",
        regenerate="It holds 2 litres [1].",
    )
    out = h.ask("How big is the Zephyr X2 kettle?")
    assert out["answer"] == "The Zephyr X2 kettle holds 1.7 litres [1]."
    assert out["answerable"] is True and out["verified"] is True
    assert "regenerate" not in h.model.roles()  # nothing left to write again
    assert any("left out 1 sentence" in n for n in out["diagnostics"]["notes"])


def test_a_definition_a_document_mentions_in_passing_is_still_the_worlds(
    make_harness: Any,
) -> None:
    doc = Document(
        page_content="Photosynthesis in the greenhouse sensors is measured hourly.",
        metadata={"id": "p1", "source": "greenhouse.md", "title": "Greenhouse"},
    )
    h = make_harness(
        retriever=KeywordRetriever(docs=[doc]),
        direct="Photosynthesis is how plants turn light into sugar.",
    )
    out = h.ask("What is photosynthesis?")
    assert out["route"]["category"] == "general" and out["answer"].startswith("Photosynthesis is")
    assert out["notices"] == [general_prompts.LABEL["en"]] and "rag" not in h.model.roles()
    owned = h.ask("What is a greenhouse?")  # the title of a page found: looked up there
    assert owned["route"]["category"] != "general"


def test_a_section_heading_under_a_long_title_still_names_a_page() -> None:
    from adaptive_rag.nodekit.owning import why_owned

    chunk = Document(
        page_content="未使用的产品在签收后 45 天内可以退货。",
        metadata={"title": "中国区售后服务", "section": "中国区售后服务 > 退货"},
    )
    assert "退货" in why_owned("退货需要支付运费吗？", [chunk], [])


def test_a_yes_to_a_question_of_several_parts_is_read_like_any_answer(make_harness: Any) -> None:
    """A comparison restates many of its terms: its unchecked yes is not taken as a guess."""
    question = (
        "Does the Zephyr X2 kettle page say the kettle boils water faster and holds more"
        " than the older model page says of its smaller kettle?"
    )
    h = make_harness(rag="Yes, the Zephyr X2 kettle boils water faster and holds more [1].")
    out = h.ask(question, max_rewrites=0)
    assert out["answerable"] is True, out["decline"]
    assert out["answer"].startswith("Yes, the Zephyr X2 kettle boils water faster")


def test_a_chinese_yes_over_an_english_page_is_not_taken_as_checked(make_harness: Any) -> None:
    # the page holds the product's name, not what is asked of it: the yes is declined, not cited
    h = make_harness(rag="是的，Zephyr X2 水壶支持无线充电[1]。")
    out = h.ask("Zephyr X2 水壶支持无线充电吗？", max_rewrites=0)
    assert out["answerable"] is False and out["decline"]["reason"] == "unsupported"
    assert "无线充电" not in out["answer"] and out["verified"] is False
    assert "direct" not in h.model.roles()  # the product's own question: never general knowledge


def test_an_asker_asking_what_they_may_do_is_declined_not_answered_generally(
    make_harness: Any,
) -> None:
    # the returns policy is kept as a likely source, and does not say
    h = make_harness(rag="The sources do not say.", direct="Yes, you can change it.")
    out = h.ask("Can I change the return address after a return is accepted?", max_rewrites=0)
    assert out["answerable"] is False and "direct" not in h.model.roles()
    general = [j for j in out["diagnostics"]["judgments"] if j["node"] == "answer_general"]
    assert [j["verdict"] for j in general] == ["owned"] and "can i" in general[0]["detail"]


class _ByScript(BaseRetriever):
    """A knowledge base searched by meaning across languages: a question's own script first."""

    english: list[Document]
    chinese: list[Document]

    def _get_relevant_documents(self, query: str, *, run_manager: Any = None) -> list[Document]:
        return self.chinese if re.search(r"[\u4e00-\u9fff]", query) else self.english


def _across(model: ScriptedChatModel, relevance: ScriptedJudge, titles: dict[str, int]) -> Any:
    overtime = Document(
        page_content="Overtime must be approved in advance by your manager. No employee may"
        " work more than 10 overtime hours in a calendar month.",
        metadata={"id": "w1", "source": "working-hours.md", "title": "Working Hours > Overtime"},
    )
    depot = Document(
        page_content="配送中心周一至周五实行两班制。",
        metadata={"id": "z1", "source": "depot.md", "title": "苏州配送中心员工规定"},
    )
    retriever = _ByScript(english=[overtime], chinese=[depot])
    services = Services(
        chat_model=model, retriever=retriever, knowledge=Titled(titles), relevance=relevance
    )
    return build_graph(services=services)


def test_a_question_in_another_language_is_owned_by_the_pages_its_translation_finds() -> None:
    model = ScriptedChatModel.with_script(
        translate="How is overtime pay calculated?",
        rag="加班费按工资的 150% 计算[1]。",
        direct="加班费一般按工资的 150% 计算。",
    )
    graph = _across(model, ScriptedJudge([0.0], [0.9]), {"Working Hours": 12, "苏州配送中心": 2})
    out = graph.invoke({"question": "加班费怎么算？"}, context=Context(answer_cache=False))
    assert model.roles()["translate"] == 1 and "direct" not in model.roles()
    assert out["answerable"] is False and "150%" not in out["answer"]  # no source says 150 %
    probes = [j for j in out["diagnostics"]["judgments"] if j["node"] == "classify"]
    assert "'How is overtime pay calculated?'" in probes[-1]["detail"]
    assert "Overtime" in out["route"]["reason"] or "overtime" in out["route"]["reason"]


def test_the_pages_a_translation_finds_are_read_as_the_probes() -> None:
    model = ScriptedChatModel.with_script(
        translate="Who must approve overtime?", rag="加班须由经理事先批准，每月最多 10 小时[1]。"
    )
    graph = _across(model, ScriptedJudge([0.0], [0.9]), {"Working Hours": 12, "苏州配送中心": 2})
    out = graph.invoke({"question": "加班要谁批准？"}, context=Context(answer_cache=False))
    assert out["answerable"] is True and out["answer"].startswith("加班须由经理事先批准")
    assert [s["source"] for s in out["sources"]] == ["working-hours.md"]
    assert out["diagnostics"]["retrievals"] == 2  # the probe and the search as translated


def test_a_general_question_in_another_language_keeps_its_general_answer() -> None:
    model = ScriptedChatModel.with_script(
        translate="What is the capital of the United Kingdom?", direct="英国的首都是伦敦。"
    )
    graph = _across(model, ScriptedJudge([0.0], [0.0]), {"Working Hours": 12, "苏州配送中心": 2})
    out = graph.invoke({"question": "英国的首都是哪里？"}, context=Context(answer_cache=False))
    assert out["answer"].startswith("英国的首都是伦敦") and out["answerable"] is True
    assert model.roles()["translate"] == 1


def test_a_question_in_the_knowledge_bases_own_language_is_not_translated() -> None:
    model = ScriptedChatModel.with_script(direct="加班费一般按工资的 150% 计算。")
    graph = _across(model, ScriptedJudge([0.0], [0.9]), {"苏州配送中心": 12, "Working Hours": 2})
    graph.invoke({"question": "加班费怎么算？"}, context=Context(answer_cache=False))
    assert "translate" not in model.roles()


def test_an_answer_citing_a_source_on_another_thing_than_the_one_asked_about_is_declined(
    make_harness: Any,
) -> None:
    person = Document(
        page_content="Norhaven was founded in 2011 by Marleen Vos, who is still our CEO.",
        metadata={"id": "o1", "source": "onboarding.md", "title": "Onboarding"},
    )
    desk = Document(
        page_content="Help desk email: helpdesk@norhaven.example. Every email becomes a ticket.",
        metadata={"id": "h1", "source": "helpdesk.md", "title": "IT Help Desk"},
    )
    bound = "Marleen Vos's email address is helpdesk@norhaven.example [2]."
    h = make_harness(retriever=KeywordRetriever(docs=[person, desk]), rag=bound)
    out = h.ask("What is Marleen Vos's email address?", max_rewrites=0)
    assert out["answerable"] is False and out["decline"]["reason"] == "not_in_sources"
    assert "Marleen Vos" in out["decline"]["detail"]
    desks = h.ask("What is the help desk's email address?", max_rewrites=0)  # no name: answered
    assert desks["answerable"] is True
