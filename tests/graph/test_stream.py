"""The `messages` stream carries the answer's tokens only, under the id the final message keeps."""

from __future__ import annotations

from typing import Any

from adaptive_rag import Context
from adaptive_rag.graph.builder import build_graph
from adaptive_rag.services import Services
from fake_sources import KeywordRetriever, kb_docs
from fakes import ScriptedChatModel
from langgraph.checkpoint.memory import InMemorySaver


def _streamed(
    graph: Any, question: str, thread: str, **context: Any
) -> tuple[list[Any], dict[str, Any]]:
    config = {"configurable": {"thread_id": thread}}
    events = [
        (mode, data)
        for mode, data in graph.stream(
            {"question": question},
            config,
            context=Context(**context),
            stream_mode=["messages", "values"],
        )
    ]
    # the question comes back as the human turn intake adds; everything else is the answer
    tokens = [data for mode, data in events if mode == "messages" and data[0].type != "human"]
    # finalize's message replaces the streamed one under its id, so it is not sent again
    assert all(meta["langgraph_node"] == "generate" for _, meta in tokens), tokens
    final = [data for mode, data in events if mode == "values"][-1]
    return tokens, final


def _graph(**script: Any) -> Any:
    model = ScriptedChatModel.with_script(**script)
    services = Services(chat_model=model, retriever=KeywordRetriever(docs=kb_docs()), no_web=True)
    return build_graph(InMemorySaver(), services=services)


def test_only_the_answer_streams_under_the_id_the_final_message_keeps() -> None:
    tokens, final = _streamed(_graph(), "How big is the Zephyr X2 kettle?", "t1")
    assert tokens, "no answer tokens streamed"
    # classify and assess called the model too; none of it streams
    assert {meta["langgraph_node"] for _, meta in tokens} == {"generate"}
    ids = {chunk.id for chunk, _ in tokens}
    assert len(ids) == 1, ids  # one answer, one id, every token
    answer = final["messages"][-1]
    assert answer.type == "ai" and answer.id in ids
    streamed = "".join(str(chunk.content) for chunk, _ in tokens)
    assert streamed.strip() and streamed.strip() in answer.content
    assert not any(str(chunk.content).lstrip().startswith("{") for chunk, _ in tokens)


def test_a_regenerated_answer_streams_under_a_new_id_and_the_final_message_keeps_the_last() -> None:
    never = "It costs 49 dollars [1]."  # no source says so, however often it is written
    graph = _graph(rag=never, regenerate=never)
    question = "How big is the Zephyr X2 kettle?"
    tokens, final = _streamed(graph, question, "t2", answer_check="decline")
    ids = list(dict.fromkeys(chunk.id for chunk, _ in tokens))
    assert len(ids) >= 2  # each generation is its own message
    assert final["answerable"] is False  # declined: the decline replaces the last draft
    assert final["messages"][-1].id == ids[-1]
    assert [m.type for m in final["messages"]] == ["human", "ai"]  # one answer in the thread


def test_a_second_turn_streams_under_a_new_id() -> None:
    graph = _graph()
    first, _ = _streamed(graph, "How big is the Zephyr X2 kettle?", "t3")
    second, final = _streamed(graph, "And how long does it take to boil?", "t3")
    assert {c.id for c, _ in first}.isdisjoint({c.id for c, _ in second})
    assert [m.type for m in final["messages"]] == ["human", "ai", "human", "ai"]
