"""Retrieve: search the knowledge base with the current query (optionally expanded first)."""

from __future__ import annotations

from adaptive_rag.knowledge.sources import fuse_documents
from adaptive_rag.knowledge.sources import retrieve as search
from adaptive_rag.nodes.calling import ask, ask_json, note, note_failure
from adaptive_rag.prompts import retrieve as prompts
from adaptive_rag.schema.context import Context, context_of
from adaptive_rag.schema.state import RESET, State
from adaptive_rag.schema.updates import Update
from adaptive_rag.services import Services
from langchain_core.documents import Document
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime
from pydantic import BaseModel, Field

EXTRA_QUERIES = 2


class Queries(BaseModel):
    """The multi-query expander's reply."""

    queries: list[str] = Field(default_factory=list)


def expand(query: str, ctx: Context, services: Services, update: Update) -> list[str]:
    """Return the queries to search: the query itself, plus multi-query and HyDE variants.

    Expansion is an extra: a failed call is recorded and the query is searched as asked.
    """
    queries = [query]
    user = HumanMessage(prompts.USER.format(question=query))
    then = "searched as asked"
    if ctx.multi_query:
        system = SystemMessage(prompts.MULTI_QUERY_SYSTEM.format(n=EXTRA_QUERIES))
        expanded = ask_json(update, "retrieve", services.fast, ctx, [system, user], Queries, then)
        extra = expanded.queries if expanded else []
        queries.extend(q.strip() for q in extra[:EXTRA_QUERIES] if q.strip())
    if ctx.hyde:
        system = SystemMessage(prompts.HYDE_SYSTEM)
        queries.append(ask(update, "retrieve", services.fast, ctx, [system, user], then) or "")
    return list(dict.fromkeys(q for q in queries if q))


def retrieve(state: State, runtime: Runtime[Context], services: Services) -> Update:
    """Replace the working documents with fresh results; a failed search yields none."""
    ctx = context_of(runtime)
    query = state.get("search_query") or state.get("standalone") or ""
    update: Update = {"steps": "retrieve", "doc_scores": [], "searched": ""}
    queries = expand(query, ctx, services, update) if (ctx.multi_query or ctx.hyde) else [query]
    earlier = list(state.get("documents") or [])
    web_docs = [d for d in earlier if d.metadata.get("origin") == "web"]
    if queries == [query] and state.get("searched") == query:  # classify's probe found these
        docs = [d for d in earlier if d.metadata.get("origin") != "web"]
    else:
        docs = _search(queries, ctx, services, update)
    update["documents"] = [RESET, *web_docs, *docs]
    update["retrieval_confident"] = bool(
        docs and not web_docs and docs[0].metadata.get("agreement")
    )
    runtime.stream_writer({"step": "retrieve", "queries": len(queries), "documents": len(docs)})
    return update


def _search(queries: list[str], ctx: Context, services: Services, update: Update) -> list[Document]:
    """Search the knowledge base with every query and fuse the results; a failure finds none."""
    update["retrievals"] = 1
    try:
        kb = services.retriever_for(ctx)
        docs = fuse_documents([search(kb, q, ctx.k) for q in queries], ctx.k)
    except Exception as exc:  # store down, no knowledge base: continue without documents
        note_failure(update, "retrieve", "retrieval", exc, "no documents")
        return []
    degraded = next((d.metadata["degraded"] for d in docs if d.metadata.get("degraded")), "")
    if degraded:
        note(update, f"retrieve: {degraded}; used the other search alone")
    return docs
