"""List sources (the knowledge graph): what the caller may read, with chunk counts and revision."""

from __future__ import annotations

from adaptive_rag.schema.knowledge import (
    KnowledgeContext,
    KnowledgeOutput,
    KnowledgeState,
    admins,
)
from adaptive_rag.schema.run_context import knowledge_context_of
from adaptive_rag.services import Opener
from langgraph.runtime import Runtime


def list_sources(
    state: KnowledgeState, runtime: Runtime[KnowledgeContext], open_kb: Opener
) -> KnowledgeOutput:
    """Return the sources the caller may read (an administrator: all) and the revision.

    A knowledge base that cannot be opened lists nothing and says why.
    """
    ctx, claims = knowledge_context_of(runtime)
    reader = ctx.reader()
    everything = claims is not None and reader.user and reader.may_write("", admins())
    try:
        kb = open_kb(ctx)
        sources = kb.sources(None if everything else reader)
        revision = int(kb.revision())
    except Exception as exc:  # the store down: the writes' results still reach the caller
        return {"sources": [], "error": f"cannot list the knowledge base: {exc}"}
    return {"sources": sources, "revision": revision}
