"""General questions the documents do not answer: answered from the model's knowledge, labelled.

Declined instead when the question is about the knowledge base's own things (it names what the
documents hold and general text rarely does), when the model is unsure of its answer, or when the
deployment wants its documents only.
"""

from __future__ import annotations

from typing import Any

from adaptive_rag import Context, Services, build_graph
from adaptive_rag.core.judges import SURE_FROM
from adaptive_rag.prompts import answer_general as prompts
from fake_sources import KeywordRetriever, kb_docs
from fakes import OddsModel, ScriptedChatModel, ScriptedJudge
from langchain_core.documents import Document

GENERAL = "How many days are there in a leap year?"


def test_a_general_question_the_documents_do_not_answer_is_answered_and_labelled(
    make_harness: Any,
) -> None:
    h = make_harness(relevance=ScriptedJudge([0.0]), direct="There are 366 days in a leap year.")
    out = h.ask(GENERAL)
    assert out["answerable"] is True and out["decline"] is None
    assert out["answer"].startswith("There are 366 days")
    assert out["notices"] == [prompts.LABEL["en"]] and out["answer"].endswith(prompts.LABEL["en"])
    assert out["sources"] == []  # the search's sources were neither shown nor listed
    assert out["verified"] is False
    assert "rag" not in h.model.roles()  # irrelevant sources never reached the writer
    assert out["diagnostics"]["steps"][-2:] == ["answer_general", "finalize"]
    verdicts = [j for j in out["diagnostics"]["judgments"] if j["node"] == "answer_general"]
    assert [j["verdict"] for j in verdicts] == ["general"]


def test_a_chinese_general_question_is_labelled_in_chinese(make_harness: Any) -> None:
    h = make_harness(relevance=ScriptedJudge([0.0]), direct="一年有十二个月。")
    out = h.ask("一年有几个月？")
    assert out["answerable"] is True and out["notices"] == [prompts.LABEL["zh"]]


def test_documents_only_declines_a_general_question(make_harness: Any) -> None:
    h = make_harness(relevance=ScriptedJudge([0.0]))
    out = h.ask(GENERAL, general_questions="decline")
    assert out["answerable"] is False and out["decline"]["reason"] == "no_relevant_documents"
    assert "direct" not in h.model.roles()


def test_a_question_naming_the_knowledge_bases_own_things_is_still_declined(
    make_harness: Any,
) -> None:
    h = make_harness(relevance=ScriptedJudge([0.0]))
    out = h.ask("Who designed the Zephyr X2 kettle's handle?")
    assert out["answerable"] is False and out["decline"]["reason"] == "no_relevant_documents"
    assert "direct" not in h.model.roles()  # decided before any model call
    judgment = next(j for j in out["diagnostics"]["judgments"] if j["node"] == "answer_general")
    assert judgment["verdict"] == "owned" and "Zephyr X2" in judgment["detail"]
    assert "documents" in judgment["detail"]  # a document searched is titled by it


def test_a_rare_name_the_documents_hold_is_not_defined_from_memory(make_harness: Any) -> None:
    # a definition's names are not taken as owned; held and rare, they are still not the model's
    docs = [*kb_docs(), Document(page_content="Quillon Labs CEO Ada Brook.", metadata={"id": "q"})]
    h = make_harness(relevance=ScriptedJudge([0.0]), retriever=KeywordRetriever(docs=docs))
    out = h.ask("What is Quillon Labs?")
    assert out["answerable"] is False and "direct" not in h.model.roles()
    judgment = next(j for j in out["diagnostics"]["judgments"] if j["node"] == "answer_general")
    assert judgment["verdict"] == "specific" and "knowledge base holds" in judgment["detail"]


def test_a_rare_name_of_one_thing_nothing_holds_is_not_answered_from_memory(
    make_harness: Any,
) -> None:
    h = make_harness(relevance=ScriptedJudge([0.0]))
    out = h.ask("What is the name of the Quillon Labs CEO's dog?")
    assert out["answerable"] is False and "direct" not in h.model.roles()
    judgment = next(j for j in out["diagnostics"]["judgments"] if j["node"] == "answer_general")
    assert judgment["detail"].startswith("names what general text rarely does")


def test_a_rare_term_nothing_holds_is_the_models_to_know_or_not() -> None:
    # "RFID" is rarer in general text than most names, and a term any encyclopedia defines
    for p_yes, answered in ((0.9, True), (0.2, False)):
        model = OddsModel(script=ScriptedChatModel.with_script().script, p_yes=p_yes)
        services = Services(
            chat_model=model,
            retriever=KeywordRetriever(docs=kb_docs()),
            no_web=True,
            relevance=ScriptedJudge([0.0]),
        )
        out = build_graph(services=services).invoke(
            {"question": "What does RFID stand for?"}, context=Context()
        )
        assert out["answerable"] is answered
        verdicts = [j["verdict"] for j in out["diagnostics"]["judgments"]]
        assert ("general" if answered else "unsure") in verdicts


def test_an_answer_the_model_is_unsure_of_keeps_the_decline() -> None:
    model = OddsModel(script=ScriptedChatModel.with_script().script, p_yes=0.2)
    graph = build_graph(
        services=Services(
            chat_model=model,
            retriever=KeywordRetriever(docs=kb_docs()),
            no_web=True,
            relevance=ScriptedJudge([0.0]),
        )
    )
    out = graph.invoke({"question": GENERAL}, context=Context())
    assert out["answerable"] is False and out["decline"]["reason"] == "no_relevant_documents"
    judgment = next(j for j in out["diagnostics"]["judgments"] if j["node"] == "answer_general")
    assert judgment["verdict"] == "unsure" and judgment["score"] is not None
    assert judgment["score"] < SURE_FROM


def test_a_decline_of_the_self_check_is_answered_from_general_knowledge(
    make_harness: Any,
) -> None:
    h = make_harness(
        rag="The sources do not say how many days a leap year has.", direct="366 days."
    )
    out = h.ask(GENERAL)
    steps = out["diagnostics"]["steps"]
    assert "self_check" in steps and steps.index("answer_general") > steps.index("self_check")
    assert out["answerable"] is True and out["answer"].startswith("366 days.")
    assert out["sources"] == [] and out["confidence"] < 0.9


def test_a_question_the_model_calls_general_is_answered_without_a_search(
    make_harness: Any,
) -> None:
    h = make_harness(relevance=ScriptedJudge([0.0]), classify="general", direct="Oxygen.")
    out = h.ask("Which gas do plants release during photosynthesis?")
    assert out["route"]["category"] == "general" and out["answer"].startswith("Oxygen.")
    assert "retrieve" not in out["diagnostics"]["steps"]
    assert out["diagnostics"]["retrievals"] == 1  # classify's probe only


def test_a_general_route_the_gate_refuses_is_looked_up_instead(make_harness: Any) -> None:
    h = make_harness(classify="general")
    out = h.ask("What does the Zephyr X2 kettle weigh?")
    steps = out["diagnostics"]["steps"]
    assert "answer_general" not in steps or steps.index("retrieve") > steps.index("answer_general")
    assert out["route"]["category"] != "general"


def test_an_empty_rewrite_never_replaces_an_answer_the_check_found_answers(
    make_harness: Any,
) -> None:
    h = make_harness(
        rag="The Zephyr X2 boils water in 3 minutes [1]. It is made in Mars Colony [1].",
        regenerate="[1]",
    )
    out = h.ask("How fast does the kettle boil?")  # names nothing the documents are about
    assert h.model.roles()["regenerate"] == 1  # the unsupported sentence was fed back once
    assert out["answerable"] is True and "3 minutes" in out["answer"]
    assert out["verified"] is False  # kept, but not as checked
    assert "direct" not in h.model.roles()  # an answer was kept: no general knowledge asked


def test_a_sentence_that_only_points_at_the_sources_is_dropped_not_rewritten(
    make_harness: Any,
) -> None:
    h = make_harness(
        rag="The Zephyr X2 boils water in 3 minutes [1]. The sources provide this information"
        " directly from the source."
    )
    out = h.ask("How fast does the Zephyr X2 kettle boil?")
    assert "regenerate" not in h.model.roles() and out["verified"] is True
    assert "provide this information" not in out["answer"]


def test_a_rare_term_a_page_only_uses_is_still_the_models_to_define() -> None:
    # "What does RFID stand for?" over a page that only uses it: the term, not the page's thing
    page = Document(page_content="The K2 encodes RFID labels.", metadata={"id": "k"})
    docs = [*kb_docs(), page]
    model = OddsModel(script=ScriptedChatModel.with_script().script, p_yes=0.9)
    services = Services(
        chat_model=model,
        retriever=KeywordRetriever(docs=docs),
        no_web=True,
        relevance=ScriptedJudge([0.0]),
    )
    question = {"question": "What does RFID stand for?"}
    out = build_graph(services=services).invoke(question, context=Context())
    assert out["answerable"] is True and out["notices"] == [prompts.LABEL["en"]]
    verdicts = [
        j["verdict"] for j in out["diagnostics"]["judgments"] if j["node"] == "answer_general"
    ]
    assert verdicts == ["general"]


def test_a_search_that_found_nothing_asks_the_model_before_searching_again(
    make_harness: Any,
) -> None:
    # the probe finds a likely source (so it is looked up), which grading then calls incorrect
    judge = ScriptedJudge([0.4, 0.1], thresholds={"keep": 0.3, "correct": 0.7, "incorrect": 0.5})
    h = make_harness(relevance=judge, direct="There are 366 days in a leap year.")
    out = h.ask(GENERAL)
    steps = out["diagnostics"]["steps"]
    assert steps[-4:] == ["retrieve", "grade_documents", "answer_general", "finalize"]
    assert "rewrite" not in h.model.roles() and out["answer"].startswith("There are 366 days")


def test_an_owned_question_whose_search_found_nothing_is_searched_again_then_declined(
    make_harness: Any,
) -> None:
    h = make_harness(relevance=ScriptedJudge([0.0]))
    out = h.ask("Who designed the Zephyr X2 kettle's handle?")
    steps = out["diagnostics"]["steps"]
    assert steps.index("answer_general") < steps.index("transform_query")  # kept from the model
    assert steps.count("retrieve") == 2 and steps[-2:] == ["generate", "finalize"]
    assert out["decline"]["reason"] == "no_relevant_documents"
