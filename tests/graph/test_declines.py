"""Honest declines, the asker's language, and sources people can use (scripted models)."""

from __future__ import annotations

import itertools
from typing import Any

from adaptive_rag.prompts import generate as generate_prompts
from fake_sources import FakeWeb, KeywordRetriever, web_docs
from fakes import ScriptedJudge
from langchain_core.documents import Document


def sequence(*replies: str) -> Any:
    it = itertools.chain(replies, itertools.repeat(replies[-1]))
    return lambda _user: next(it)


def test_the_model_finding_no_answer_in_the_sources_is_a_typed_decline(make_harness: Any) -> None:
    h = make_harness(rag="The sources do not say.")
    out = h.ask("What colour is the Zephyr X2 kettle?")
    assert out["answerable"] is False and out["decline"]["reason"] == "not_in_sources"
    assert out["answer"] == generate_prompts.DECLINE["en"]["not_in_sources"]
    assert out["verified"] is False
    assert out["sources"] and not any(s["cited"] for s in out["sources"])  # what was looked at
    assert out["messages"][-1].content == out["answer"]  # no sources listed under a decline
    check = [j for j in out["diagnostics"]["judgments"] if j["node"] == "self_check"]
    assert check[-1]["verdict"] == "decline"  # the model's own words, read by rule


def test_an_admission_followed_by_what_the_sources_do_hold_is_still_a_decline(
    make_harness: Any,
) -> None:
    # the second sentence is in a source, so repair would cite it: the model's own words decide
    said = "The sources do not say. They only mention the Zephyr X2 kettle's 1.7 litre capacity."
    h = make_harness(rag=said)
    out = h.ask("What colour is the Zephyr X2 kettle?")
    assert out["decline"] and out["decline"]["reason"] == "not_in_sources"
    assert out["answer"] == generate_prompts.DECLINE["en"]["not_in_sources"]


def test_a_yes_taken_back_by_its_own_next_sentence_is_a_typed_decline(
    make_harness: Any,
) -> None:
    # the sources hold every word asked (the focus check passes): only the admission tells
    said = (
        "Yes, the Zephyr X2 kettle boils in 3 minutes. The sources do not say how long the"
        " Zephyr X2 kettle takes to boil."
    )
    h = make_harness(rag=said)
    out = h.ask("Does the Zephyr X2 kettle boil in 3 minutes?")
    assert out["decline"] and out["decline"]["reason"] == "not_in_sources"
    assert out["answer"] == generate_prompts.DECLINE["en"]["not_in_sources"]


def test_a_chinese_question_is_declined_in_chinese(make_harness: Any) -> None:
    h = make_harness(rag="资料中没有提到这个信息。")
    out = h.ask("Zephyr X2 水壶是什么颜色的？")
    assert out["language"] == "zh" and out["answerable"] is False
    assert out["answer"] == generate_prompts.DECLINE["zh"]["not_in_sources"]


def test_all_documents_irrelevant_and_no_web_declines_without_guessing(make_harness: Any) -> None:
    h = make_harness(relevance=ScriptedJudge([0.0]))
    out = h.ask("How big is the Zephyr X2 kettle?")
    assert out["answerable"] is False and out["decline"]["reason"] == "no_relevant_documents"
    roles = h.model.roles()
    assert "rag" not in roles and "direct" not in roles  # no answer was written from memory
    assert out["diagnostics"]["rewrites"] == 1  # the corrective search was tried first


def test_an_empty_knowledge_base_is_said_not_papered_over(make_harness: Any) -> None:
    h = make_harness(retriever=KeywordRetriever(docs=[]))
    out = h.ask("What is the IP rating of the Kestrel K2?")
    assert out["answerable"] is False and out["decline"]["reason"] == "no_documents"
    assert "65" not in out["answer"] and "direct" not in h.model.roles()


def test_an_unsupported_answer_is_declined_once_its_budget_is_spent(make_harness: Any) -> None:
    h = make_harness(rag="It costs 49 dollars [1].", regenerate="It costs 49 dollars [1].")
    out = h.ask("How big is the Zephyr X2 kettle?", answer_check="decline")
    assert out["answerable"] is False and out["decline"]["reason"] == "unsupported"
    assert out["decline"]["detail"].startswith("no support in [1] for 'It costs 49 dollars'")
    assert h.model.roles()["regenerate"] == 1  # max_regenerations=1 was spent first


def test_an_answer_of_citation_numbers_only_is_written_again(make_harness: Any) -> None:
    h = make_harness(rag="The Zephyr X2's capacity is [1].")
    out = h.ask("How big is the kettle?")  # the scripted retry is no claim: kept unchecked
    assert h.model.roles()["retry"] == 1 and out["answerable"] is True
    assert out["answer"].startswith("A second try")
    assert out["diagnostics"]["regenerations"] == 1


def test_an_empty_answer_with_no_budget_left_is_declined(make_harness: Any) -> None:
    h = make_harness(rag="[1][2]")
    out = h.ask("How big is the Zephyr X2 kettle?", max_regenerations=0)
    assert out["answerable"] is False and out["decline"]["reason"] == "empty_answer"
    assert "retry" not in h.model.roles()


def test_an_answer_in_the_wrong_language_is_written_again_in_the_askers(
    make_harness: Any,
) -> None:
    h = make_harness(rag="The kettle holds 1.7 litres [1].", retry="水壶容量为 1.7 升 [1]。")
    out = h.ask("Zephyr X2 水壶的容量是多少？")
    assert out["answer"] == "水壶容量为 1.7 升 [1]。" and h.model.roles()["retry"] == 1
    rag = next(user for role, user in h.model.calls if role == "rag")
    assert rag.endswith(generate_prompts.LANGUAGE_CUE["zh"])  # the prompt ends with the cue


def test_one_source_per_document_cited_first() -> None:
    from adaptive_rag.knowledge.sources import merge_by_document
    from adaptive_rag.nodes.generate import sources_for

    chunks = [
        Document("Part one.", metadata={"id": "a1", "source": "a.md", "title": "A", "position": 1}),
        Document("Other.", metadata={"id": "b1", "source": "b.md", "title": "B", "position": 0}),
        Document(
            "Part zero.", metadata={"id": "a0", "source": "a.md", "title": "A", "position": 0}
        ),
    ]
    docs = merge_by_document(chunks)
    assert [d.metadata["title"] for d in docs] == ["A", "B"]
    assert docs[0].page_content == "Part zero.\n…\nPart one."
    sources = sources_for("B says so [2].", docs)
    assert [(s["title"], s["cited"]) for s in sources] == [("B", True), ("A", False)]
    assert sources[1]["snippet"] == "Part one."  # the best-ranked chunk, not the first in file


def test_a_chinese_follow_up_is_rewritten_with_chinese_instructions_and_examples() -> None:
    from adaptive_rag.prompts import rewrite_with_history as prompts
    from adaptive_rag.prompts.rewrite_with_history import messages as rewrite_messages

    zh = rewrite_messages("用户：海天酱油好吗？\n助手：很好。", "那来两瓶吧")
    assert zh[0].content == prompts.SYSTEM_ZH and zh[-1].content.endswith("改写后的问题：")
    assert len(zh) == 2 + 2 * len(prompts.EXAMPLES_ZH)  # worked examples as earlier turns
    en = rewrite_messages("User: Is the K2 good?\nAssistant: Yes.", "How much is it?")
    assert en[0].content == prompts.SYSTEM and len(en) == 2 + 2 * len(prompts.EXAMPLES)


def test_many_sources_share_one_budget_so_synthesis_fits_the_context() -> None:
    from adaptive_rag.knowledge.sources import SOURCE_CHARS, SOURCES_BUDGET, format_documents

    long = [Document("x" * 5000, metadata={"title": f"D{i}"}) for i in range(8)]
    assert format_documents(long[:4]).count("x") == 4 * SOURCE_CHARS
    assert format_documents(long).count("x") == SOURCES_BUDGET  # 2·k fused documents


def test_the_answer_is_asked_to_say_when_the_sources_do_not_say(make_harness: Any) -> None:
    h = make_harness()
    h.ask("How big is the Zephyr X2 kettle?")
    rag = next(user for role, user in h.model.calls if role == "rag")
    assert generate_prompts.IF_MISSING in rag and "NO_ANSWER" not in rag


def test_an_answer_that_only_says_the_sources_lack_it_is_a_typed_decline(
    make_harness: Any,
) -> None:
    h = make_harness(rag="The sources do not say how big the kettle is.")
    out = h.ask("How big is the Zephyr X2 kettle?", max_rewrites=0)
    assert out["answerable"] is False and out["decline"]["reason"] == "not_in_sources"
    assert out["answer"] == generate_prompts.DECLINE["en"]["not_in_sources"]
    check = [j for j in out["diagnostics"]["judgments"] if j["node"] == "self_check"][-1]
    assert (check["method"], check["verdict"]) == ("rule", "decline")
    kept = make_harness(rag="The sources do not say how big the kettle is.")
    out = kept.ask("How big is the Zephyr X2 kettle?", max_rewrites=0, declines="never")
    assert out["answer"].startswith("The sources do not say") and out["answerable"] is True


def test_an_attempt_that_found_no_answer_outlasts_a_later_unsupported_one_as_a_decline(
    make_harness: Any,
) -> None:
    # the first answer says the sources lack it (a decline); the web search after it writes an
    # unsupported answer with no budget left to write it again: the decline stands, and the
    # earlier "The sources do not say" is not shown as an unverified answer
    h = make_harness(
        web=FakeWeb(web_docs()),
        rag=sequence("The sources do not say how big the kettle is.", "It costs 49 dollars [1]."),
        transform="Zephyr X2 kettle size",
    )
    out = h.ask("How big is the Zephyr X2 kettle?", max_regenerations=0)
    assert out["diagnostics"]["rewrites"] == 1 and h.model.roles()["rag"] == 2
    assert out["answerable"] is False and out["decline"]["reason"] == "not_in_sources"
    assert out["answer"] == generate_prompts.DECLINE["en"]["not_in_sources"]
    assert "Unverified" not in out["answer"] and not any(s["cited"] for s in out["sources"])
