"""Web search: add web results through Tavily, or say why the web was not reached."""

from __future__ import annotations

from adaptive_rag.core.secrets import describe
from adaptive_rag.nodekit.calling import note_failure, progress
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.state import State
from adaptive_rag.schema.updates import Update
from adaptive_rag.services import Services

RESULTS = 3
"""Web results read per search: they share the sources' one character budget with the rest."""


def web_search(state: State, ctx: Context, services: Services) -> Update:
    """Search the web once; any failure turns the web off for the rest of the turn."""
    update: Update = {"web_searches": 1}
    web = services.web(ctx)
    if web is None:
        update.update({"web_available": False, "web_status": services.web_off(ctx, web)})
        return update
    query = state.get("search_query") or state.get("standalone") or ""
    try:
        docs = web.search(query, RESULTS)
    except Exception as exc:
        reason = describe(exc)
        update.update({"web_available": False, "web_status": f"web search failed ({reason})"})
        note_failure(update, "web_search", "web", exc, "answered from the knowledge base")
        return update
    update["documents"] = docs
    update["web_status"] = "ok" if docs else "the web search returned no results"
    progress({"step": "web_search", "results": len(docs)})
    return update
