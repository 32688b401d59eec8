"""graph/binding.py leans on LangGraph's private RunnableCallable: these fail when LangGraph changes it.

What the binding needs of it: built from a sync function and its async twin, each is handed the
run's Runtime when LangGraph runs the node, the sync one in `invoke` and the async one in
`ainvoke`, and the node keeps its name. The binding hands the node the Runtime's Context.
"""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

from adaptive_rag.graph.binding import bind
from adaptive_rag.schema.context import Context
from langgraph._internal._runnable import RunnableCallable
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class _State(TypedDict, total=False):
    question: str
    seen: str
    steps: str


def test_the_private_class_takes_what_the_binding_passes() -> None:
    params = inspect.signature(RunnableCallable.__init__).parameters
    assert list(params)[1:3] == ["func", "afunc"]
    assert "name" in params and "trace" in params


def test_a_bound_node_gets_the_context_in_sync_and_async_runs() -> None:
    calls: list[str] = []

    def look(state: Any, ctx: Context, services: Any) -> Any:
        """Read the run's context."""
        calls.append(ctx.chat_model)
        return {"seen": f"{state['question']} via {services}"}

    node = bind(look, "svc")  # type: ignore[arg-type]
    assert isinstance(node, RunnableCallable) and node.name == "look"
    builder = StateGraph(_State, context_schema=Context)
    builder.add_node("look", node)
    builder.add_edge(START, "look")
    builder.add_edge("look", END)
    graph = builder.compile()
    context = Context(chat_model="fake:one")
    assert graph.invoke({"question": "q"}, context=context) == {
        "question": "q",
        "seen": "q via svc",
        "steps": "look",
    }
    out = asyncio.run(graph.ainvoke({"question": "a"}, context=context))
    assert out["seen"] == "a via svc" and out["steps"] == "look"
    assert calls == ["fake:one", "fake:one"]
