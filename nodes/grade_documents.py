"""Grade documents (CRAG evaluator): score all in one call, then correct/ambiguous/incorrect."""

from __future__ import annotations

from typing import Literal

from adaptive_rag.knowledge.sources import reading_messages
from adaptive_rag.nodes.calling import ask_json, note
from adaptive_rag.prompts import grade_documents as prompts
from adaptive_rag.schema.context import Context, context_of
from adaptive_rag.schema.state import RESET, Relevance, State
from adaptive_rag.schema.updates import Update
from adaptive_rag.services import Services
from langgraph.runtime import Runtime
from pydantic import BaseModel


class Grades(BaseModel):
    """The grader's reply: one label per document, in order."""

    grades: list[Literal["yes", "partial", "no"]]


SCORES = {"yes": 1.0, "partial": 0.5, "no": 0.0}


def crag_verdict(scores: list[float], correct: float, incorrect: float) -> Relevance:
    """Return correct if any score reaches `correct`, incorrect if all are below `incorrect`."""
    if scores and max(scores) >= correct:
        return "correct"
    if not scores or max(scores) < incorrect:
        return "incorrect"
    return "ambiguous"


def grade_documents(state: State, runtime: Runtime[Context], services: Services) -> Update:
    """Keep documents scoring at least the lower threshold; unreadable grades keep them all."""
    ctx = context_of(runtime)
    docs = list(state.get("documents") or [])
    update: Update = {"steps": "grade_documents", "graded": True}
    if not docs:  # documents rejected by an earlier search this turn stay on record
        update.update({"relevance": "incorrect", "doc_scores": []})
        return update
    scores: list[float] | None = None
    task = prompts.TASK.format(question=state.get("standalone") or "", count=len(docs))
    messages = reading_messages(docs, task)
    reply = ask_json(update, "grade_documents", services.fast, ctx, messages, Grades, "kept all")
    if reply is not None and len(reply.grades) == len(docs):
        scores = [SCORES[label] for label in reply.grades]
    elif reply is not None:
        note(update, f"grade_documents: {len(reply.grades)} grades for {len(docs)} documents")
    if scores is None:  # safe default: treat as relevant, but say the grade is unverified
        update.update(
            {
                "relevance": "correct",
                "doc_scores": [1.0] * len(docs),
                "graded": False,
                "rejected": [],
            }
        )
        return update
    # Kept documents stay in search order, so the answer's prompt keeps the grader's prefix.
    kept = [
        (s, doc)
        for i, (s, doc) in enumerate(zip(scores, docs, strict=True))
        if s >= ctx.incorrect_threshold
        # A small grader's "no" is often wrong where hybrid search ranked a document first;
        # dropping the top hit costs more than a little extra context, so it stays if any does.
        or (i == 0 and max(scores) >= ctx.incorrect_threshold)
    ]
    relevance = crag_verdict(scores, ctx.correct_threshold, ctx.incorrect_threshold)
    update["relevance"] = relevance
    runtime.stream_writer({"step": "grade_documents", "relevance": relevance, "scores": scores})
    update["documents"] = [RESET, *(doc for _, doc in kept)]
    update["doc_scores"] = [s for s, _ in kept]
    kept_ids = {id(doc) for _, doc in kept}
    update["rejected"] = [doc for doc in docs if id(doc) not in kept_ids]
    return update
