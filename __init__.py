"""adaptive-rag: a LangGraph agent that decides, per question, how much retrieval it deserves."""

from adaptive_rag.graph.as_tool import as_tool
from adaptive_rag.graph.builder import build_builder, build_graph
from adaptive_rag.graph.context import Context
from adaptive_rag.graph.state import InputState, OutputState, Source, State
from adaptive_rag.services import Services

agent = build_graph()
"""The compiled graph with no checkpointer: what `langgraph.json` serves."""

__all__ = [
    "Context",
    "InputState",
    "OutputState",
    "Services",
    "Source",
    "State",
    "agent",
    "as_tool",
    "build_builder",
    "build_graph",
]
