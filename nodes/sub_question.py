"""Search one sub-question of a complex question (runs in parallel, one per Send)."""

from __future__ import annotations

from adaptive_rag.core.text import doc_key
from adaptive_rag.nodekit.calling import search_for
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.state import SubQuestionState
from adaptive_rag.schema.updates import Update
from adaptive_rag.schema.values import SubSearch
from adaptive_rag.services import Services


def sub_question(state: SubQuestionState, ctx: Context, services: Services) -> Update:
    """Search for the sub-question; its ranking is fused with the others' before writing."""
    question, index = state["sub_question"], state["index"]
    update: Update = {}
    name = f"sub_question {index + 1}"
    docs = search_for(update, name, services, ctx, question, "no documents") or []
    update["documents"] = docs
    update["sub_searches"] = [
        SubSearch(index=index, question=question, source_keys=[doc_key(doc) for doc in docs])
    ]
    return update
