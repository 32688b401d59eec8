"""Retrieve: search the knowledge base with the current query."""

from __future__ import annotations

from typing import Any

from adaptive_rag.graph.context import Context, context_of
from adaptive_rag.graph.state import RESET, State
from adaptive_rag.services import Services
from adaptive_rag.services.retrieval import retrieve as search
from langgraph.runtime import Runtime


def retrieve(state: State, runtime: Runtime[Context], services: Services) -> dict[str, Any]:
    """Replace the working documents with fresh results; a failed search yields none."""
    ctx = context_of(runtime)
    query = state.get("search_query") or state.get("standalone") or ""
    update: dict[str, Any] = {"steps": "retrieve", "retrievals": 1, "doc_scores": []}
    try:
        docs = search(services.kb(ctx), query, ctx.k)
    except Exception as exc:  # store down, no knowledge base: continue without documents
        update["notes"] = f"retrieve: knowledge base unavailable ({type(exc).__name__}: {exc})"
        docs = []
    web_docs = [d for d in state.get("documents") or [] if d.metadata.get("origin") == "web"]
    update["documents"] = [RESET, *web_docs, *docs]
    return update
