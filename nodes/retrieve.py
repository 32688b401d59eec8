"""Retrieve: search the knowledge base with the current query (optionally expanded first)."""

from __future__ import annotations

from typing import Any

from adaptive_rag.core.failures import failed
from adaptive_rag.knowledge.sources import fuse_documents
from adaptive_rag.knowledge.sources import retrieve as search
from adaptive_rag.prompts import retrieve as prompts
from adaptive_rag.providers.chat import add_usage, call_model, parse_json
from adaptive_rag.schema.context import Context, context_of
from adaptive_rag.schema.state import RESET, State
from adaptive_rag.services import Services
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime
from pydantic import BaseModel, Field

EXTRA_QUERIES = 2


class Queries(BaseModel):
    """The multi-query expander's reply."""

    queries: list[str] = Field(default_factory=list)


def expand(query: str, ctx: Context, services: Services, update: dict[str, Any]) -> list[str]:
    """Return the queries to search: the query itself, plus multi-query and HyDE variants."""
    queries = [query]
    for enabled, system, schema in (
        (ctx.multi_query, prompts.MULTI_QUERY_SYSTEM.format(n=EXTRA_QUERIES), Queries),
        (ctx.hyde, prompts.HYDE_SYSTEM, None),
    ):
        if not enabled:
            continue
        try:
            reply = call_model(
                services.fast(ctx),
                [SystemMessage(system), HumanMessage(prompts.USER.format(question=query))],
                schema,
            )
        except Exception as exc:  # expansion is an extra: without it, search as asked
            update.update(failed("retrieve", "model", exc, "searched as asked"))
            continue
        add_usage(update, reply)
        if schema is None:
            queries.append(reply.text)
        else:
            try:
                extra = parse_json(reply.text, Queries).queries
            except ValueError as exc:
                update.update(failed("retrieve", "model", exc, "searched as asked"))
                extra = []
            queries.extend(q.strip() for q in extra[:EXTRA_QUERIES] if q.strip())
    return list(dict.fromkeys(q for q in queries if q))


def retrieve(state: State, runtime: Runtime[Context], services: Services) -> dict[str, Any]:
    """Replace the working documents with fresh results; a failed search yields none."""
    ctx = context_of(runtime)
    query = state.get("search_query") or state.get("standalone") or ""
    update: dict[str, Any] = {"steps": "retrieve", "retrievals": 1, "doc_scores": []}
    queries = expand(query, ctx, services, update) if (ctx.multi_query or ctx.hyde) else [query]
    try:
        kb = services.kb(ctx)
        docs = fuse_documents([search(kb, q, ctx.k) for q in queries], ctx.k)
    except Exception as exc:  # store down, no knowledge base: continue without documents
        update.update(failed("retrieve", "retrieval", exc, "no documents"))
        docs = []
    degraded = next((d.metadata["degraded"] for d in docs if d.metadata.get("degraded")), "")
    if degraded:
        update["notes"] = f"retrieve: {degraded}; used the other search alone"
    web_docs = [d for d in state.get("documents") or [] if d.metadata.get("origin") == "web"]
    update["documents"] = [RESET, *web_docs, *docs]
    update["retrieval_confident"] = bool(
        ctx.skip_checks_when_confident
        and docs
        and not web_docs
        and docs[0].metadata.get("agreement")
    )
    runtime.stream_writer({"step": "retrieve", "queries": len(queries), "documents": len(docs)})
    return update
