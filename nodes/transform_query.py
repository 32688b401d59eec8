"""Transform query: write a better search query after a search or an answer fell short."""

from __future__ import annotations

from typing import Any

from adaptive_rag.core.failures import failed
from adaptive_rag.prompts import transform_query as prompts
from adaptive_rag.providers.chat import call_model, clean_line
from adaptive_rag.schema.context import Context, context_of
from adaptive_rag.schema.state import State
from adaptive_rag.services import Services
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime


def transform_query(state: State, runtime: Runtime[Context], services: Services) -> dict[str, Any]:
    """Rewrite the search query; the attempt counts against the budget even if it fails."""
    ctx = context_of(runtime)
    question = state.get("standalone") or ""
    previous = state.get("search_query") or question
    update: dict[str, Any] = {"steps": "transform_query", "rewrites": 1, "check": None}
    try:
        reply = call_model(
            services.chat(ctx),
            [
                SystemMessage(prompts.SYSTEM),
                HumanMessage(prompts.USER.format(question=question, previous=previous)),
            ],
        )
    except Exception as exc:
        update.update(failed("transform_query", "model", exc, "kept the query"))
        return update
    update.update(reply.usage())
    query = clean_line(reply.text, prefixes=("better query", "query", "search query"))
    if query:
        update["search_query"] = query
    return update
