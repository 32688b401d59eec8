"""adaptive-rag: a LangGraph agent that decides, per question, how much retrieval it deserves.

Importing the package is cheap: the public names load on first use, so importing one module
(e.g. `adaptive_rag.knowledge.chunking`) does not compile the agent or load every node.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from adaptive_rag.graph.as_tool import as_tool
    from adaptive_rag.graph.builder import build_builder, build_graph
    from adaptive_rag.schema.context import Context
    from adaptive_rag.schema.state import InputState, OutputState, State
    from adaptive_rag.schema.values import Source
    from adaptive_rag.served import agent
    from adaptive_rag.services import Services

_PUBLIC = {
    "as_tool": "adaptive_rag.graph.as_tool",
    "build_builder": "adaptive_rag.graph.builder",
    "build_graph": "adaptive_rag.graph.builder",
    "Context": "adaptive_rag.schema.context",
    "InputState": "adaptive_rag.schema.state",
    "OutputState": "adaptive_rag.schema.state",
    "Source": "adaptive_rag.schema.values",
    "State": "adaptive_rag.schema.state",
    "Services": "adaptive_rag.services",
    "agent": "adaptive_rag.served",
}


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use."""
    if name in _PUBLIC:
        value = getattr(importlib.import_module(_PUBLIC[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'adaptive_rag' has no attribute {name!r}")


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
