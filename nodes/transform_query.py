"""Transform query: write a better search query after a search or an answer fell short.

When the knowledge base is searched next and most of it is written in another language than the
question ("全职员工一年有多少天年假？" over an English handbook, whose first search found only the
Chinese pages), the question translated into the knowledge base's language is the new query (the
fast model's translation, as classify's): the pages in the question's own language were found and
judged short already. A reply that is no translation falls back to the rewrite.
"""

from __future__ import annotations

from adaptive_rag.core.text import language_of
from adaptive_rag.nodekit.calling import ask
from adaptive_rag.prompts import transform_query as prompts
from adaptive_rag.providers.calls import clean_line
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.reading import can_search_web
from adaptive_rag.schema.state import State
from adaptive_rag.schema.updates import Update
from adaptive_rag.services import Services


def transform_query(state: State, ctx: Context, services: Services) -> Update:
    """Rewrite the search query; the attempt counts against the budget even if it fails."""
    question = state.get("standalone") or ""
    previous = state.get("search_query") or question
    update: Update = {"rewrites": 1, "check": None, "decline": None}
    into = _into(state, ctx, services, question)
    if into and (translated := _translated(question, into, ctx, services, update)):
        update["search_query"] = translated
        return update
    messages = prompts.messages(question, previous)
    text = ask(update, "transform_query", services.chat, ctx, messages, "kept the query")
    if text is None:
        return update
    query = clean_line(text, prefixes=("better query", "query", "search query"))
    if query:
        update["search_query"] = query
    return update


def _translated(question: str, into: str, ctx: Context, services: Services, update: Update) -> str:
    """Return the question in the knowledge base's language ('' when the reply is no such thing)."""
    messages = prompts.translation(question, into)
    text = ask(
        update,
        "transform_query",
        lambda c: services.fast(c, "translate"),
        ctx,
        messages,
        "rewrote the query instead",
    )
    query = clean_line(text or "")
    return query if query and language_of(query) == into else ""


def _into(state: State, ctx: Context, services: Services, question: str) -> str:
    """Return the language of the knowledge base searched next, when it is not the question's.

    '' keeps the question's language: the web is searched next, or the knowledge base's language
    is unknown or the question's.
    """
    if can_search_web(state):
        return ""
    into = services.main_language(ctx)
    asked = state.get("language") or language_of(question)
    return into if into in prompts.LANGUAGES and into != asked else ""
