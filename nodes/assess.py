"""Assess: before writing, how likely the sources state the answer (a signal of the decline)."""

from __future__ import annotations

from adaptive_rag.nodekit.calling import ask_yes_no, judged, note, progress
from adaptive_rag.prompts import assess as prompts
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.state import State
from adaptive_rag.schema.updates import Update
from adaptive_rag.services import Services


def assess(state: State, ctx: Context, services: Services) -> Update:
    """Rate the sources' support for an answer; a failed call leaves the answer to be written.

    The sources go first, as in generation, so the answer's call reuses this prefix.
    The odds are one signal of the answerability judge (self_check), which decides on declines.
    """
    docs = list(state.get("documents") or [])
    update: Update = {"support": None}
    if not docs:  # generate says why nothing was found
        return update
    question = state.get("standalone") or ""
    messages = prompts.messages(docs, question, state.get("language") or "en")
    reply = ask_yes_no(update, "assess", services.fast, ctx, messages, "answered anyway")
    support = reply.yes if reply is not None else None
    if reply is not None and not reply.odds:  # a bare "yes" is what a small model says to all
        note(update, "assess: the model gave no odds; its yes/no is not used")
        support = None
    update["support"] = support
    if support is not None:
        judged(update, "assess", "model", support, "yes" if support >= 0.5 else "no")
    progress({"step": "assess", "support": support})
    return update
