"""Rewrite a follow-up into a standalone question from the last few turns."""

from __future__ import annotations

from adaptive_rag.nodekit.calling import ask
from adaptive_rag.prompts import rewrite_with_history as prompts
from adaptive_rag.providers.calls import clean_line
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.state import State
from adaptive_rag.schema.updates import Update
from adaptive_rag.services import Services


def rewrite_with_history(state: State, ctx: Context, services: Services) -> Update:
    """Make the question standalone; if that fails, search with it as typed."""
    question = state.get("query") or ""
    update: Update = {"history_rewritten": True}
    history = prompts.recent_history(list(state.get("messages") or []), ctx.history_turns)
    if not history:
        return update
    messages = prompts.messages(history, question)
    text = ask(update, "rewrite_with_history", services.chat, ctx, messages, "used as typed")
    if text is None:
        return update
    standalone = clean_line(
        text,
        prefixes=("standalone question", "question", "rewritten", "改写后的问题", "改写"),
    )
    if standalone:
        update["standalone"] = standalone
        update["search_query"] = standalone
    return update
