"""The knowledge graph: add, replace, delete and list the knowledge base's documents.

Served beside the agent (`langgraph.json`: `knowledge`), so Studio, the SDK, `RemoteGraph` and an
MCP host manage the documents the agent searches. One run: `write_documents` deletes and adds
(as the signed-in writer's own), then `list_sources` returns what the caller may read. An empty
request only lists.
"""

from __future__ import annotations

from typing import Any

from adaptive_rag.knowledge.interface import KnowledgeStore
from adaptive_rag.nodes.list_sources import list_sources
from adaptive_rag.nodes.write_documents import write_documents
from adaptive_rag.schema.knowledge import (
    KnowledgeContext,
    KnowledgeInput,
    KnowledgeOutput,
    KnowledgeState,
)
from adaptive_rag.services import Opener, open_knowledge_base
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime


def open_for_writing(ctx: KnowledgeContext) -> KnowledgeStore:
    """Open (creating it on the first write) the knowledge base a run's settings name."""
    return open_knowledge_base(ctx.kb_path, ctx.collection, ctx.embedding_model, create=True)


def build_knowledge_graph(open_kb: Opener | None = None, name: str = "Knowledge base") -> Any:
    """Compile the knowledge graph; `open_kb` replaces how it opens the knowledge base (tests)."""
    opener = open_kb or open_for_writing

    def write(state: KnowledgeState, runtime: Runtime[KnowledgeContext]) -> KnowledgeOutput:
        return write_documents(state, runtime, opener)

    def listing(state: KnowledgeState, runtime: Runtime[KnowledgeContext]) -> KnowledgeOutput:
        return list_sources(state, runtime, opener)

    write.__doc__ = write_documents.__doc__
    listing.__doc__ = list_sources.__doc__
    builder = StateGraph(
        KnowledgeState,
        context_schema=KnowledgeContext,
        input_schema=KnowledgeInput,
        output_schema=KnowledgeOutput,
    )
    builder.add_node("write_documents", write)
    builder.add_node("list_sources", listing)
    builder.add_edge(START, "write_documents")
    builder.add_edge("write_documents", "list_sources")
    builder.add_edge("list_sources", END)
    return builder.compile(name=name)
