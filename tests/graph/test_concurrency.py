"""Many runs share one compiled graph and process: concurrent async runs stay separate."""

from __future__ import annotations

import asyncio

from adaptive_rag import Services, build_graph
from fake_sources import KeywordRetriever, kb_docs
from fakes import ScriptedChatModel
from langgraph.checkpoint.memory import InMemorySaver

QUESTIONS = [
    "How big is the Zephyr X2 kettle?",
    "How many watts does the Aurora lamp use?",
    "Within how many days are returns accepted?",
    "Compare the Zephyr X2 kettle and the Aurora lamp",
] * 4


def test_concurrent_async_runs_on_separate_threads() -> None:
    model = ScriptedChatModel.with_script()
    services = Services(chat_model=model, retriever=KeywordRetriever(docs=kb_docs()), no_web=True)
    graph = build_graph(InMemorySaver(), services=services)

    async def one(i: int, question: str) -> dict:  # type: ignore[type-arg]
        config = {"configurable": {"thread_id": f"load-{i}"}}
        return await graph.ainvoke({"question": question}, config)

    async def main() -> list[dict]:  # type: ignore[type-arg]
        return await asyncio.gather(*(one(i, q) for i, q in enumerate(QUESTIONS)))

    outs = asyncio.run(main())
    assert len(outs) == 16
    for question, out in zip(QUESTIONS, outs, strict=True):
        assert out["messages"][0].content == question and len(out["messages"]) == 2
        assert out["diagnostics"]["steps"][-1] == "finalize"
        expected = "complex" if question.startswith("Compare") else "simple"
        assert out["route"]["category"] == expected
