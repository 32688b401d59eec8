"""One hop of the multi-step path: search, note the bridge fact, write the next hop's query."""

from __future__ import annotations

from adaptive_rag.core.documents import doc_key
from adaptive_rag.knowledge.sources import reading_messages, retrieve
from adaptive_rag.nodes.calling import ask_json, note_failure
from adaptive_rag.prompts import hop as prompts
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.reading import describe_hops
from adaptive_rag.schema.run_context import context_of
from adaptive_rag.schema.state import State
from adaptive_rag.schema.updates import Update
from adaptive_rag.schema.values import Hop
from adaptive_rag.services import Services
from langgraph.runtime import Runtime
from pydantic import BaseModel, Field


class Step(BaseModel):
    """The model's reply for one hop."""

    finding: str = ""
    missing: str = Field(default="", max_length=300)
    answerable: bool = False
    next_query: str = Field(default="", max_length=300)

    def done(self) -> bool:
        """Stop only if the model also named nothing missing (it says "yes" before it reads)."""
        return self.answerable and not self.missing.strip()

    def query(self) -> str:
        """Search next for the model's query, else for the missing fact it named."""
        return (self.next_query or self.missing).strip()


def facts_so_far(hops: list[Hop]) -> str:
    """List earlier hops' searches and findings for the next hop's prompt."""
    return prompts.FACTS.format(listing=describe_hops(hops)) if hops else prompts.NO_FACTS


def hop(state: State, runtime: Runtime[Context], services: Services) -> Update:
    """Search this hop's query; a failed search or model ends the hops with what was found."""
    ctx = context_of(runtime)
    question = state.get("standalone") or ""
    hops = list(state.get("hops") or [])
    query = state.get("next_query") or (state.get("sub_questions") or [question])[0]
    update: Update = {"steps": "hop", "retrievals": 1, "next_query": ""}
    name = f"hop {len(hops) + 1}"
    stop = Step(answerable=True)  # what a failure means: stop searching, answer from what we have
    try:
        docs = retrieve(services.retriever_for(ctx), query, ctx.k)
    except Exception as exc:
        note_failure(update, name, "retrieval", exc, "answering")
        docs, step = [], stop
    else:  # nothing found: no finding to build on, nothing to answer from
        step = Step(answerable=False, next_query="")
    if docs:
        task = prompts.TASK.format(query=query, facts=facts_so_far(hops), question=question)
        messages = reading_messages(docs, task)
        step = ask_json(update, name, services.fast, ctx, messages, Step, "answering") or stop
    record = Hop(
        index=len(hops),
        query=query,
        finding=step.finding.strip(),
        done=step.done(),
        source_keys=[doc_key(doc) for doc in docs],
    )
    runtime.stream_writer(
        {"step": "hop", "index": record["index"], "query": query, "finding": record["finding"]}
    )
    update["hops"] = [*hops, record]
    update["documents"] = docs
    if not record["done"]:
        update["next_query"] = step.query()
    return update
