"""Expose the agent as a LangChain tool, for host agents that decide when to consult it."""

from __future__ import annotations

from typing import Any

from adaptive_rag.schema.context import Context
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field

DESCRIPTION = (
    "Answer a question from the knowledge base (and the web for current events), with numbered"
    " sources. Input: one standalone question."
)


class AskInput(BaseModel):
    """What the host model sends: one standalone question."""

    question: str = Field(description="A standalone question, in English or Chinese.")


def as_tool(
    graph: Any = None,
    *,
    name: str = "knowledge_base",
    description: str = DESCRIPTION,
    context: Context | None = None,
) -> BaseTool:
    """Wrap a compiled agent (default: `adaptive_rag.agent`) as a tool returning answer + sources.

    The tool's content is the answer followed by its sources; its artifact is the full output
    state (route, confidence, diagnostics), so a host can log or display it.

    Example:
        >>> from langchain.agents import create_agent
        >>> agent = create_agent("openai:gpt-4o-mini", tools=[as_tool()])
    """
    if graph is None:
        from adaptive_rag.graph.builder import build_graph

        graph = build_graph()

    def ask(question: str, config: RunnableConfig) -> tuple[str, dict[str, Any]]:
        out = graph.invoke({"question": question}, config, context=context or Context())
        lines = [out.get("answer", "")]
        sources = out.get("sources") or []
        if sources:
            lines.append("Sources:")
            lines += [f"[{s['id']}] {s['title']} ({s['source']})" for s in sources]
        artifact = {k: v for k, v in out.items() if k != "messages"}
        return "\n".join(lines), artifact

    return StructuredTool.from_function(
        func=ask,
        name=name,
        description=description,
        args_schema=AskInput,
        response_format="content_and_artifact",
    )
