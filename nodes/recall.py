"""Recall: the earlier answer to the same question over the same knowledge base, if there is one.

The same words only (case, width, spacing and closing punctuation aside, `normalise`): any
nearness by meaning also matched different questions (docs/decisions.md).
"""

from __future__ import annotations

from adaptive_rag.nodekit.calling import note_failure
from adaptive_rag.schema.answer_scope import answer_scope
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.state import State
from adaptive_rag.schema.updates import Update
from adaptive_rag.schema.values import Recall
from adaptive_rag.services import RetrieverUnavailableError, Services


def recall(state: State, ctx: Context, services: Services) -> Update:
    """Find an earlier answer, so a repeated question costs no model call."""
    update: Update = {}
    try:
        found = services.answers(ctx)
        if found is None:
            return update
        cache, revision = found
        hit = cache.find(state.get("query") or "", answer_scope(ctx), revision)
    except RetrieverUnavailableError:
        return update  # no knowledge base: the search says so, once
    except Exception as exc:
        note_failure(update, "recall", "retrieval", exc, "answering it afresh")
        return update
    if hit is not None:
        update["recalled"] = Recall(
            output=hit.output,
            question=hit.question,
            revision=revision,
        )
    return update
