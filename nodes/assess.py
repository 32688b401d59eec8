"""Assess: before writing, how likely the sources state the answer; decline when unlikely."""

from __future__ import annotations

from adaptive_rag.knowledge.sources import reading_messages
from adaptive_rag.nodes.calling import ask_yes_no
from adaptive_rag.prompts import assess as prompts
from adaptive_rag.schema.context import Context, context_of
from adaptive_rag.schema.state import Decline, State
from adaptive_rag.schema.updates import Update
from adaptive_rag.services import Services
from langgraph.runtime import Runtime


def assess(state: State, runtime: Runtime[Context], services: Services) -> Update:
    """Rate the sources' support for an answer; a failed call leaves the answer to be written.

    The sources go first, as in grading and generation, so the answer's call reuses this prefix.
    Odds at or above `check_below` leave the answer unchecked: over 82 assessed answers the
    self-check never changed one (docs/benchmarks.md).
    """
    ctx = context_of(runtime)
    docs = list(state.get("documents") or [])
    update: Update = {"steps": "assess", "support": None, "assured": False}
    if not docs:  # generate says why nothing was found
        return update
    task = prompts.TASK.format(question=state.get("standalone") or "")
    reply = ask_yes_no(
        update, "assess", services.fast, ctx, reading_messages(docs, task), "answered anyway"
    )
    support = reply.yes if reply is not None else None
    update["support"] = support
    # the check is skipped on measured odds only: a bare "yes" is what a small model says to all
    update["assured"] = bool(reply and reply.odds and (support or 0.0) >= ctx.check_below)
    runtime.stream_writer({"step": "assess", "support": support})
    if support is not None and support < ctx.decline_below:
        detail = f"the model rates {support:.2f} that the documents found state the answer"
        update["decline"] = Decline(reason="not_in_sources", detail=detail)
    return update
