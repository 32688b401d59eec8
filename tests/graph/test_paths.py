"""Every route through the graph, driven by scripted fake models."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from adaptive_rag import Context, Services, build_graph
from adaptive_rag.prompts import generate as generate_prompts
from fakes import FakeWeb, KeywordRetriever, ScriptedJudge, kb_docs, web_docs
from langchain_core.documents import Document
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver


def sequence(*replies: str) -> Any:
    """Reply with each text in turn, then keep repeating the last."""
    it = itertools.chain(replies, itertools.repeat(replies[-1]))
    return lambda _user: next(it)


@pytest.mark.usefixtures("heuristic_confidence")
def test_general_question_answers_directly_without_retrieval(make_harness: Any) -> None:
    h = make_harness()
    out = h.ask("Hello!")
    assert out["route"]["category"] == "general" and out["route"]["method"] == "rule"
    assert out["diagnostics"]["steps"] == ["intake", "recall", "classify", "generate", "finalize"]
    assert out["diagnostics"]["retrievals"] == 0
    assert h.model.roles() == {"direct": 1}
    assert generate_prompts.DIRECT_NOTE["en"] in out["answer"]
    assert out["sources"] == [] and out["verified"] is False and out["confidence"] == 0.5


def test_model_classified_general_question(make_harness: Any) -> None:
    h = make_harness(classify="general")
    out = h.ask("What is photosynthesis?")
    assert out["route"] == {
        "category": "general",
        "reason": "model said 'general'",
        "method": "model",
    }
    # one search checked that the knowledge base holds nothing clearly on it; none was used
    assert out["diagnostics"]["retrievals"] == 1 and out["sources"] == []


def test_a_general_verdict_on_what_the_knowledge_base_clearly_holds_retrieves(
    make_harness: Any,
) -> None:
    doc = Document(
        page_content="Photosynthesis in the Quillon greenhouse sensors is measured hourly.",
        metadata={"id": "p1", "source": "greenhouse.md", "title": "Greenhouse"},
    )
    h = make_harness(classify="general", retriever=KeywordRetriever(docs=[doc], agree=True))
    out = h.ask("What is photosynthesis?")
    assert out["route"]["category"] == "simple"
    assert "knowledge base clearly holds it" in out["route"]["reason"]
    assert out["sources"][0]["title"] == "Greenhouse"
    # classify's probe found the document; retrieve used it instead of searching again
    assert out["diagnostics"]["retrievals"] == 1
    assert out["diagnostics"]["steps"][:4] == ["intake", "recall", "classify", "retrieve"]


@pytest.mark.usefixtures("heuristic_confidence")
def test_simple_question_retrieves_once_and_cites_its_source(make_harness: Any) -> None:
    h = make_harness()
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
    # classify, assess, generate: grading and checking make no model call
    assert out["diagnostics"]["model_calls"] == 3 and out["diagnostics"]["tokens_in"] > 0
    judgments = [(j["node"], j["method"]) for j in out["diagnostics"]["judgments"]]
    assert judgments == [
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
    h = make_harness(classify="I am not sure what you mean")
    out = h.ask("Tell me about the Zephyr X2 kettle")
    assert out["route"]["category"] == "simple" and out["route"]["method"] == "default"
    assert out["diagnostics"]["retrievals"] == 1


def test_identical_questions_are_classified_once(make_harness: Any) -> None:
    h = make_harness()
    first = h.ask("Tell me about the Zephyr X2 kettle")
    second = h.ask("Tell me about the Zephyr X2 kettle")
    assert first["route"]["method"] == "model" and second["route"]["method"] == "cache"
    assert h.model.roles()["classify"] == 1


def test_follow_up_is_rewritten_from_history_and_first_turn_is_not() -> None:
    from fakes import KeywordRetriever, ScriptedChatModel, kb_docs

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
    from fakes import KeywordRetriever, ScriptedChatModel, kb_docs

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


def test_a_comparison_s_parts_steer_retrieval_and_one_answer_is_written(make_harness: Any) -> None:
    h = make_harness()
    out = h.ask("Compare the Zephyr X2 kettle and the Aurora lamp", k=2)
    steps = out["diagnostics"]["steps"]
    # the two parts and the whole question's own search, in parallel
    assert steps.count("sub_question") == 3 and "retrieve" not in steps
    assert steps[-3:] == ["generate", "self_check", "finalize"]
    assert out["diagnostics"]["retrievals"] == 3
    roles = h.model.roles()
    assert roles["rag"] == 1 and sum(roles.values()) == 1
    assert "decompose" not in roles  # the parts come from a rule, not a model
    # written as from one search: the whole question over the best k of the fused documents
    prompt = next(user for role, user in h.model.calls if role == "rag")
    assert "Question: Compare the Zephyr X2 kettle and the Aurora lamp" in prompt
    assert prompt.count("<source ") == 2
    assert {s["title"] for s in out["sources"]} == {"Zephyr X2", "Aurora lamp"}


def test_a_rejected_answer_from_parts_is_rewritten_with_the_check_s_feedback(
    make_harness: Any,
) -> None:
    h = make_harness(rag="The Aurora lamp uses 60 watts [2].")
    h.ask("Compare the Zephyr X2 kettle and the Aurora lamp", max_regenerations=1)
    rewrite = next(user for role, user in h.model.calls if role == "regenerate")
    assert "no support in [2] for 'The Aurora lamp uses 60 watts'" in rewrite


def test_realtime_goes_to_the_web_first(make_harness: Any) -> None:
    web = FakeWeb(web_docs())
    h = make_harness(web=web)
    out = h.ask("What is the latest Zephyr news today?")
    assert out["route"]["category"] == "realtime"
    assert out["diagnostics"]["steps"][:4] == ["intake", "recall", "classify", "web_search"]
    assert out["diagnostics"]["retrievals"] == 0
    assert out["sources"][0]["origin"] == "web"
    assert web.queries == ["What is the latest Zephyr news today?"]


def test_realtime_without_web_says_so_and_uses_the_knowledge_base(make_harness: Any) -> None:
    h = make_harness()
    out = h.ask("What is the latest news about the Zephyr X2 kettle today?")
    assert "web_search" not in out["diagnostics"]["steps"]
    assert out["diagnostics"]["retrievals"] == 1
    assert "The web could not be searched" in out["answer"]
    assert "no TAVILY_API_KEY" in out["answer"]


def test_realtime_with_unreachable_web_falls_back_to_the_knowledge_base(make_harness: Any) -> None:
    h = make_harness(web=FakeWeb(error="ConnectionError: network unreachable"))
    out = h.ask("What is the latest news about the Zephyr X2 kettle today?")
    steps = out["diagnostics"]["steps"]
    assert steps[:5] == ["intake", "recall", "classify", "web_search", "retrieve"]
    assert "The web could not be searched" in out["answer"] and "unreachable" in out["answer"]
    assert any("web_search" in n for n in out["diagnostics"]["notes"])
    assert out["sources"][0]["origin"] == "kb"


def test_the_judge_drops_unlikely_sources_and_keeps_search_order(make_harness: Any) -> None:
    h = make_harness(relevance=ScriptedJudge([0.8, 0.9]))
    out = h.ask("How big is the Zephyr X2 kettle and the Aurora lamp?")
    rag = next(user for role, user in h.model.calls if role == "rag")
    assert rag.count("<source ") == 2 and rag.index("Zephyr X2") < rag.index("Aurora lamp")
    assess = next(user for role, user in h.model.calls if role == "assess")
    assert rag[: rag.index("</source>")] == assess[: assess.index("</source>")]  # one prefix
    assert out["sources"] and len(h.relevance.calls) == 2  # every source judged, no model call
    h = make_harness(relevance=ScriptedJudge([0.1, 0.9]))  # the top hit is unlikely: dropped
    h.ask("How big is the Zephyr X2 kettle and the Aurora lamp?")
    rag = next(user for role, user in h.model.calls if role == "rag")
    assert rag.count("<source ") == 1 and "Zephyr X2 kettle has" not in rag


def test_crag_correct_uses_documents_and_drops_irrelevant_ones(make_harness: Any) -> None:
    h = make_harness(relevance=ScriptedJudge([0.9, 0.1]))
    out = h.ask("How big is the Zephyr X2 kettle?")
    rag = next(user for role, user in h.model.calls if role == "rag")
    assert "Zephyr X2" in rag and "Returns are accepted" not in rag
    assert "refine" not in out["diagnostics"]["steps"]


def test_crag_ambiguous_refines_and_adds_web_results(make_harness: Any) -> None:
    web = FakeWeb(web_docs())
    h = make_harness(web=web, relevance=ScriptedJudge([0.5, 0.1]), refine='{"keep": [1]}')
    out = h.ask("How big is the Zephyr X2 kettle?")
    steps = out["diagnostics"]["steps"]
    assert steps[steps.index("grade_documents") :] == [
        "grade_documents",
        "refine",
        "web_search",
        "generate",
        "self_check",
        "finalize",
    ]
    rag = next(user for role, user in h.model.calls if role == "rag")
    assert "Zephyr X3 was announced" in rag  # web result added


def test_crag_ambiguous_without_web_refines_only(make_harness: Any) -> None:
    h = make_harness(relevance=ScriptedJudge([0.5, 0.1]))
    out = h.ask("How big is the Zephyr X2 kettle?")
    steps = out["diagnostics"]["steps"]
    assert "refine" in steps and "web_search" not in steps


def test_crag_incorrect_rewrites_for_the_web(make_harness: Any) -> None:
    web = FakeWeb(web_docs())
    h = make_harness(
        web=web, relevance=ScriptedJudge([0.0, 0.0]), transform="Zephyr kettle capacity litres"
    )
    out = h.ask("How big is the Zephyr X2 kettle?")
    steps = out["diagnostics"]["steps"]
    assert steps[steps.index("grade_documents") :][:3] == [
        "grade_documents",
        "transform_query",
        "web_search",
    ]
    assert web.queries == ["Zephyr kettle capacity litres"]
    assert out["diagnostics"]["rewrites"] == 1


def test_crag_incorrect_without_web_searches_the_knowledge_base_again(make_harness: Any) -> None:
    h = make_harness(
        relevance=ScriptedJudge([0.0, 0.0], [0.9, 0.0]), transform="Zephyr kettle litres"
    )
    out = h.ask("How big is the Zephyr X2 kettle?")
    steps = out["diagnostics"]["steps"]
    assert steps.count("retrieve") == 2 and steps.count("transform_query") == 1
    assert out["verified"] is True


def test_self_check_not_grounded_regenerates_with_feedback(make_harness: Any) -> None:
    h = make_harness(
        rag="The Zephyr X2 kettle costs 49 dollars [1].",
        regenerate="The Zephyr X2 kettle holds 1.7 litres [1].",
    )
    out = h.ask("How big is the Zephyr X2 kettle?")
    assert h.model.roles()["regenerate"] == 1
    prompt = next(user for role, user in h.model.calls if role == "regenerate")
    assert "no support in [1] for 'The Zephyr X2 kettle costs 49 dollars'" in prompt
    assert out["answer"] == "The Zephyr X2 kettle holds 1.7 litres [1]."
    assert out["verified"] is True and out["diagnostics"]["regenerations"] == 1


def test_an_answer_still_unsupported_is_marked_or_declined_as_answer_check_says(
    make_harness: Any,
) -> None:
    h = make_harness(rag="It costs 49 dollars [1].", regenerate="It costs 49 dollars [1].")
    marked = h.ask("How big is the Zephyr X2 kettle?")
    assert marked["answerable"] is True and marked["verified"] is False
    assert "Unverified" in marked["answer"] and marked["diagnostics"]["regenerations"] == 1
    declined = h.ask("How big is the Zephyr X2 kettle?", answer_check="decline")
    assert declined["decline"]["reason"] == "unsupported"
    assert "49 dollars" in declined["decline"]["detail"]
    off = h.ask("How big is the Zephyr X2 kettle?", answer_check="off")
    assert off["answer"] == "It costs 49 dollars [1]." and off["diagnostics"]["regenerations"] == 0


def test_citations_are_repaired_to_point_at_the_source_that_says_it(make_harness: Any) -> None:
    h = make_harness(rag="[3] The Zephyr X2 kettle holds 1.7 litres.")
    out = h.ask("How big is the Zephyr X2 kettle?")
    assert out["answer"] == "The Zephyr X2 kettle holds 1.7 litres [1]."
    assert [s["title"] for s in out["sources"] if s["cited"]] == ["Zephyr X2"]


def test_self_check_not_answering_rewrites_and_retrieves_again(make_harness: Any) -> None:
    h = make_harness(transform="Zephyr X2 kettle capacity")
    h.graph = build_graph(
        services=Services(
            chat_model=h.model,
            retriever=h.retriever,
            no_web=True,
            relevance=h.relevance,
            answerability=ScriptedJudge([0.1, 0.9], thresholds={"decline": 0.5}),
        )
    )
    out = h.ask("How big is the Zephyr X2 kettle?")
    steps = out["diagnostics"]["steps"]
    after_check = steps[steps.index("self_check") :]
    assert after_check[:4] == ["self_check", "transform_query", "retrieve", "grade_documents"]
    assert out["verified"] is True and out["diagnostics"]["rewrites"] == 1


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


def test_an_unanswerable_question_searches_again_then_declines(make_harness: Any) -> None:
    h = make_harness(transform="query that matches nothing")
    unlikely = ScriptedJudge([0.1], thresholds={"decline": 0.5})
    h.graph = build_graph(
        services=Services(
            chat_model=h.model,
            retriever=h.retriever,
            no_web=True,
            relevance=h.relevance,
            answerability=unlikely,
        )
    )
    out = h.ask("How big is the Zephyr X2 kettle?")
    assert out["diagnostics"]["steps"].count("retrieve") == 2
    assert out["answerable"] is False and "The answer is in the sources" not in out["answer"]
    never = h.ask("How big is the Zephyr X2 kettle?", declines="never")
    assert never["answerable"] is True and never["diagnostics"]["rewrites"] == 0


def test_custom_stream_reports_progress(make_harness: Any) -> None:
    h = make_harness()
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
    assert out["diagnostics"]["model_calls"] == 3
