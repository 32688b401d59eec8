"""Transform query: write a better search query after a search or an answer fell short."""

from __future__ import annotations

from adaptive_rag.nodekit.calling import ask
from adaptive_rag.prompts import transform_query as prompts
from adaptive_rag.providers.calls import clean_line
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.state import State
from adaptive_rag.schema.updates import Update
from adaptive_rag.services import Services


def transform_query(state: State, ctx: Context, services: Services) -> Update:
    """Rewrite the search query; the attempt counts against the budget even if it fails."""
    question = state.get("standalone") or ""
    previous = state.get("search_query") or question
    update: Update = {"rewrites": 1, "check": None, "decline": None}
    messages = prompts.messages(question, previous)
    text = ask(update, "transform_query", services.chat, ctx, messages, "kept the query")
    if text is None:
        return update
    query = clean_line(text, prefixes=("better query", "query", "search query"))
    if query:
        update["search_query"] = query
    return update
