"""Retrieve: search the knowledge base with the current query."""

from __future__ import annotations

from adaptive_rag.nodekit.calling import progress, search_for
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.reading import from_web
from adaptive_rag.schema.state import RESET, State
from adaptive_rag.schema.updates import Update
from adaptive_rag.services import Services


def retrieve(state: State, ctx: Context, services: Services) -> Update:
    """Replace the working documents with fresh results; a failed search yields none."""
    query = state.get("search_query") or state.get("standalone") or ""
    update: Update = {"doc_scores": [], "searched": ""}
    earlier = list(state.get("documents") or [])
    web_docs = [d for d in earlier if from_web(d)]
    if state.get("searched") == query:  # classify's probe found these
        docs = [d for d in earlier if not from_web(d)]
    else:  # a failed search finds none
        docs = search_for(update, "retrieve", services, ctx, query, "no documents") or []
    update["documents"] = [RESET, *web_docs, *docs]
    update["retrieval_confident"] = bool(
        docs and not web_docs and docs[0].metadata.get("agreement")
    )
    progress({"step": "retrieve", "documents": len(docs)})
    return update
