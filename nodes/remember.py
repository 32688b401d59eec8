"""Remember: keep a grounded answer for the next time the same question is asked."""

from __future__ import annotations

from adaptive_rag.nodekit.calling import note_failure
from adaptive_rag.schema.answer_scope import answer_scope
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.state import REMEMBERED, State
from adaptive_rag.schema.updates import Update
from adaptive_rag.services import Services

KEPT_FOR = 86_400
"""Seconds a cached answer is returned (a day); ingest, delete and new answering code forget it
sooner."""


def remember(state: State, ctx: Context, services: Services) -> Update:
    """Store the answer under its question, settings and knowledge-base revision."""
    update: Update = {}
    output = {name: state.get(name) for name in REMEMBERED}
    try:
        found = services.answers(ctx)
        if found is not None:
            cache, revision = found
            question = state.get("query") or ""
            cache.put(question, answer_scope(ctx), revision, output, KEPT_FOR)
    except Exception as exc:  # the answer is given either way; only the next ask pays
        note_failure(update, "remember", "retrieval", exc, "the answer was not cached")
    return update
