"""The direct and simple routes, follow-ups and the chat interface, driven by scripted fakes."""

from __future__ import annotations

from typing import Any

import pytest
from adaptive_rag import Context, Services, build_graph
from adaptive_rag.prompts import generate as generate_prompts
from fake_sources import KeywordRetriever, kb_docs
from fakes import ScriptedChatModel, ScriptedJudge
from langchain_core.documents import Document
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver


@pytest.mark.usefixtures("heuristic_confidence")
def test_general_question_answers_directly_without_retrieval(make_harness: Any) -> None:
    h = make_harness()
    out = h.ask("Hello!")
    assert out["route"]["category"] == "general" and out["route"]["method"] == "rule"
    assert out["diagnostics"]["steps"] == ["intake", "recall", "classify", "generate", "finalize"]
    assert out["diagnostics"]["retrievals"] == 0
    assert h.model.roles() == {"talk": 1}  # replied to as small talk, by what the assistant does
    assert generate_prompts.DIRECT_NOTE["en"] not in out["answer"]  # a greeting states no fact
    assert out["sources"] == [] and out["verified"] is False and out["confidence"] == 0.5


@pytest.mark.parametrize(
    ("message", "language"), [("你好，你能做什么？", "zh"), ("Who are you?", "en")]
)
def test_a_question_to_the_assistant_about_itself_is_told_what_it_does(
    make_harness: Any, message: str, language: str
) -> None:
    h = make_harness()
    out = h.ask(message)
    assert out["route"]["method"] == "rule" and out["diagnostics"]["retrievals"] == 0
    assert not h.model.calls  # no model guesses who it is
    assert out["answer"] == generate_prompts.ABOUT[language] and out["sources"] == []


def test_small_talk_is_replied_to_without_a_general_knowledge_label(make_harness: Any) -> None:
    h = make_harness(talk="不客气！还有什么可以帮你？")
    out = h.ask("谢谢，我明白了。")
    assert h.model.roles() == {"talk": 1} and out["answerable"] is True
    assert out["answer"] == "不客气！还有什么可以帮你？"


def test_a_sum_is_answered_directly_and_labelled(make_harness: Any) -> None:
    h = make_harness()
    out = h.ask("What is 12 times 7?")
    assert h.model.roles() == {"direct": 1}
    assert generate_prompts.DIRECT_NOTE["en"] in out["answer"]


def test_model_classified_general_question(make_harness: Any) -> None:
    h = make_harness(classify="general")
    out = h.ask("Which gas do leaves give off by day?")
    assert out["route"] == {
        "category": "general",
        "reason": "model said 'general'",
        "method": "model",
    }
    # one search checked that the knowledge base holds nothing clearly on it; none was used
    assert out["diagnostics"]["retrievals"] == 1 and out["sources"] == []


def test_a_definition_the_knowledge_base_does_not_hold_is_answered_without_the_router(
    make_harness: Any,
) -> None:
    h = make_harness(classify="general")
    out = h.ask("What is photosynthesis?")
    assert out["route"]["category"] == "general" and out["route"]["method"] == "rule"
    assert "classify" not in h.model.roles() and h.model.roles()["direct"] == 1
    assert out["diagnostics"]["steps"][-2:] == ["answer_general", "finalize"]


def test_a_question_the_knowledge_base_holds_is_looked_up_without_asking_the_model(
    make_harness: Any,
) -> None:
    doc = Document(
        page_content="Photosynthesis in the Quillon greenhouse sensors is measured hourly.",
        metadata={"id": "p1", "source": "greenhouse.md", "title": "Greenhouse"},
    )
    h = make_harness(classify="general", retriever=KeywordRetriever(docs=[doc]))
    out = h.ask("How often is photosynthesis measured?")  # a definition would be the model's
    assert out["route"]["category"] == "simple" and out["route"]["method"] == "fitted"
    assert "classify" not in h.model.roles()
    assert out["sources"][0]["title"] == "Greenhouse"
    # classify's probe found the document; retrieve used it instead of searching again
    assert out["diagnostics"]["retrievals"] == 1
    assert out["diagnostics"]["steps"][:4] == ["intake", "recall", "classify", "retrieve"]
    probe = out["diagnostics"]["judgments"][0]
    assert probe["node"] == "classify" and probe["method"] == "fitted" and probe["score"] == 0.9


def test_a_general_verdict_on_what_the_knowledge_base_holds_retrieves(make_harness: Any) -> None:
    doc = Document(
        page_content="Photosynthesis in the Quillon greenhouse sensors is measured hourly.",
        metadata={"id": "p1", "source": "greenhouse.md", "title": "Greenhouse"},
    )
    h = make_harness(classify="general", retriever=KeywordRetriever(docs=[doc]))
    # a shape other than auto asks the model even so, for its complex verdicts
    out = h.ask("How often is photosynthesis measured?", complex_shape="sequential")
    assert h.model.roles()["classify"] == 1
    assert out["route"]["category"] == "simple" and out["route"]["method"] == "model"
    assert "but the knowledge base holds a likely source" in out["route"]["reason"]
    assert out["sources"][0]["title"] == "Greenhouse"
    assert out["diagnostics"]["retrievals"] == 1


def test_a_word_about_the_present_routes_real_time_only_when_the_knowledge_base_lacks_it(
    make_harness: Any,
) -> None:
    question = "Which news outlet reported the Zephyr X2 kettle's latest capacity?"
    held = make_harness(classify="complex").ask(question)  # the model is not asked
    assert held["route"]["category"] == "simple" and held["route"]["method"] == "fitted"
    assert "The web could not be searched" not in held["answer"]
    lacking = make_harness(classify="simple", relevance=ScriptedJudge([0.1]))
    out = lacking.ask(question)
    assert out["route"] == {
        "category": "realtime",
        "reason": "asks about something recent ('news') the knowledge base does not hold",
        "method": "rule",
    }
    assert "classify" not in lacking.model.roles()
    assert "The web could not be searched" in out["answer"]  # no web here: the notice says so
    # a word that ties the answer to today is real-time whatever the knowledge base holds
    today = make_harness().ask("What is the Zephyr X2 kettle's price today?")
    assert today["route"]["category"] == "realtime" and today["route"]["method"] == "rule"


def test_without_a_judge_two_agreeing_searches_mean_the_knowledge_base_holds_it() -> None:
    model = ScriptedChatModel.with_script(classify="general")
    services = Services(
        chat_model=model, retriever=KeywordRetriever(docs=kb_docs(), agree=True), no_web=True
    )  # a retriever of the host's own: no search signals, so no judge
    out = build_graph(services=services).invoke({"question": "How big is the Zephyr X2 kettle?"})
    assert out["route"] == {
        "category": "simple",
        "reason": "both searches agree on a source",
        "method": "rule",
    }
    assert "classify" not in model.roles()


@pytest.mark.usefixtures("heuristic_confidence")
def test_simple_question_retrieves_once_and_cites_its_source(make_harness: Any) -> None:
    h = make_harness(relevance=ScriptedJudge([0.9, 0.1]))  # one likely source
    out = h.ask("How big is the Zephyr X2 kettle?")
    assert out["diagnostics"]["steps"] == [
        "intake",
        "recall",
        "classify",
        "retrieve",
        "grade_documents",
        "assess",
        "generate",
        "self_check",
        "finalize",
    ]
    assert out["sources"][0]["title"] == "Zephyr X2" and out["sources"][0]["cited"]
    assert out["verified"] is True and out["confidence"] >= 0.9
    assert out["diagnostics"]["support"] is None  # the fake says "yes" with no odds: not used
    # assess, generate: routing, grading and checking make no model call
    assert out["diagnostics"]["model_calls"] == 2 and out["diagnostics"]["tokens_in"] > 0
    judgments = [(j["node"], j["method"]) for j in out["diagnostics"]["judgments"]]
    assert judgments == [
        ("classify", "fitted"),
        ("grade_documents", "fitted"),
        ("self_check", "rule"),
        ("self_check", "fitted"),
    ]
    # the scripted model is not the one the judge's odds were fitted on: it says so, and uses
    # the judge fitted without them
    assert any("judged without its probabilities" in n for n in out["diagnostics"]["notes"])
    assert isinstance(out["messages"][-1], AIMessage)
    # a chat UI shows the message only, so the cited sources are listed under the answer
    assert out["messages"][-1].content == (
        f"{out['answer']}\n\nSources:\n- [1] Zephyr X2 (products/zephyr.md)"
    )
    bare = h.ask("How big is the Zephyr X2 kettle?", sources_in_messages=False)
    assert bare["messages"][-1].content == bare["answer"]


def test_a_stray_yes_before_an_answer_to_a_which_question_is_dropped(make_harness: Any) -> None:
    h = make_harness(rag="Yes, the Zephyr X2 holds 1.7 litres [1].")
    out = h.ask("Which size is the Zephyr X2 kettle?")
    assert out["answer"] == "The Zephyr X2 holds 1.7 litres [1]."
    assert out["messages"][-1].content.startswith("The Zephyr X2 holds")
    asked = h.ask("Is the Zephyr X2 kettle 1.7 litres?", answer_check="off")
    assert asked["answer"].startswith("Yes, the Zephyr X2 holds")


def test_unparseable_classification_means_retrieve(make_harness: Any) -> None:
    # classify's probe finds nothing likely, so the model is asked; its reply names no category
    h = make_harness(classify="I am not sure what you mean", relevance=ScriptedJudge([0.0]))
    out = h.ask("Tell me about the Zephyr X2 kettle")
    assert out["route"]["category"] == "simple" and out["route"]["method"] == "default"
    assert out["diagnostics"]["steps"].count("retrieve") >= 1


def test_identical_questions_are_classified_once(make_harness: Any) -> None:
    h = make_harness(relevance=ScriptedJudge([0.0]))  # nothing likely: the model is asked
    first = h.ask("Tell me about the Zephyr X2 kettle")
    second = h.ask("Tell me about the Zephyr X2 kettle")
    assert first["route"]["method"] == "model" and second["route"]["method"] == "cache"
    assert h.model.roles()["classify"] == 1


def test_follow_up_is_rewritten_from_history_and_first_turn_is_not() -> None:
    model = ScriptedChatModel.with_script(
        rewrite="How long does the Zephyr X2 kettle take to boil?",
    )
    graph = build_graph(
        InMemorySaver(),
        services=Services(
            chat_model=model, retriever=KeywordRetriever(docs=kb_docs()), no_web=True
        ),
    )
    config = {"configurable": {"thread_id": "t1"}}
    first = graph.invoke({"question": "How big is the Zephyr X2 kettle?"}, config)
    assert "rewrite" not in model.roles()
    second = graph.invoke({"messages": [HumanMessage("How long does it take to boil?")]}, config)
    assert model.roles()["rewrite"] == 1
    rewrite_prompt = next(user for role, user in model.calls if role == "rewrite")
    assert "How big is the Zephyr X2 kettle?" in rewrite_prompt
    assert first["answer"] in rewrite_prompt  # the previous answer is part of the history
    assert second["route"]["category"] == "simple"  # classified again once standalone
    assert second["diagnostics"]["steps"][:4] == [
        "intake",  # no recall: a follow-up depends on the conversation, so it is not cached
        "classify",
        "rewrite_with_history",
        "classify",
    ]
    assert second["diagnostics"]["retrievals"] == 1  # per-turn counters were reset
    assert len(second["messages"]) == 4


def test_history_window_is_bounded() -> None:
    model = ScriptedChatModel.with_script(rewrite="standalone")
    graph = build_graph(
        InMemorySaver(),
        services=Services(
            chat_model=model, retriever=KeywordRetriever(docs=kb_docs()), no_web=True
        ),
    )
    config = {"configurable": {"thread_id": "long"}}
    for n in range(5):
        graph.invoke(
            {"question": f"Question number {n} about the kettle?"},
            config,
            context=Context(history_turns=2),
        )
    graph.invoke({"question": "and it?"}, config, context=Context(history_turns=2))
    prompt = [user for role, user in model.calls if role == "rewrite"][-1]
    assert "Question number 4" in prompt and "Question number 3" in prompt
    assert "Question number 2" not in prompt


def test_graph_works_as_a_chat_node_with_messages_input(make_harness: Any) -> None:
    h = make_harness()
    out = h.graph.invoke({"messages": [HumanMessage("How big is the Zephyr X2 kettle?")]})
    assert [type(m) for m in out["messages"]] == [HumanMessage, AIMessage]
    assert out["answer"]


def test_plain_question_wins_over_stale_messages(make_harness: Any) -> None:
    h = make_harness()
    out = h.graph.invoke(
        {"messages": [HumanMessage("old question")], "question": "How big is the Zephyr X2 kettle?"}
    )
    assert out["messages"][-2].content == "How big is the Zephyr X2 kettle?"


def test_custom_stream_reports_progress(make_harness: Any) -> None:
    h = make_harness(relevance=ScriptedJudge([0.9, 0.1]))  # one likely source: assessed
    events = [
        data
        for mode, data in h.graph.stream(
            {"question": "How big is the Zephyr X2 kettle?"}, stream_mode=["custom", "updates"]
        )
        if mode == "custom"
    ]
    steps = ["classify", "retrieve", "grade_documents", "assess", "self_check"]
    assert [e["step"] for e in events] == steps
    assert events[0]["category"] == "simple" and events[1]["documents"] > 0
    assert events[2]["relevance"] == "correct" and events[3]["support"] is None
    assert events[4]["grounded"] is True


def test_agreed_retrieval_is_still_judged_and_checked(make_harness: Any) -> None:
    h = make_harness(retriever=KeywordRetriever(docs=kb_docs(), agree=True))
    out = h.ask("How big is the Zephyr X2 kettle?")
    steps = out["diagnostics"]["steps"]
    assert "grade_documents" in steps and "self_check" in steps and out["verified"] is True
    assert out["diagnostics"]["model_calls"] == 1  # generate: every source likely, no assess
