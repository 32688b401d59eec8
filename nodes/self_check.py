"""Self-check (Self-RAG): is the answer grounded in its sources, and does it answer?"""

from __future__ import annotations

from adaptive_rag.knowledge.sources import reading_messages
from adaptive_rag.nodes.calling import ask_json
from adaptive_rag.prompts import self_check as prompts
from adaptive_rag.schema.context import Context, context_of
from adaptive_rag.schema.reading import verdict_score
from adaptive_rag.schema.state import SelfCheck, State
from adaptive_rag.schema.updates import Update
from adaptive_rag.services import Services
from langgraph.runtime import Runtime
from pydantic import BaseModel


class Verdict(BaseModel):
    """The checker's reply."""

    grounded: bool
    answers_question: bool
    feedback: str = ""


def self_check(state: State, runtime: Runtime[Context], services: Services) -> Update:
    """Check the latest answer; unreadable output counts as passed but unverified."""
    ctx = context_of(runtime)
    answer = state.get("answer") or ""
    docs = list(state.get("documents") or []) or list(state.get("rejected") or [])
    update: Update = {"steps": "self_check"}
    task = prompts.TASK.format(question=state.get("standalone") or "", answer=answer)
    messages = reading_messages(docs, task)
    verdict = ask_json(update, "self_check", services.fast, ctx, messages, Verdict, "unverified")
    if verdict is None:
        check = SelfCheck(grounded=True, answers_question=True, feedback="", parsed=False)
    else:
        check = SelfCheck(
            grounded=verdict.grounded,
            answers_question=verdict.answers_question,
            feedback=verdict.feedback.strip()[:500],
            parsed=True,
        )
    update["check"] = check
    runtime.stream_writer({"step": "self_check", **check})
    if verdict_score(check) > state.get("best_score", -1):
        update["best_answer"] = answer
        update["best_score"] = verdict_score(check)
        update["best_sources"] = state.get("sources") or []
        update["best_id"] = state.get("answer_id") or ""
    return update
