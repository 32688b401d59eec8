"""The prompted grader the fitted retrieval evaluator replaced, kept as its baseline.

It asks the chat model to label every source yes / partial / no in one call (the CRAG
evaluator as a prompt). `adaptive-rag eval fit-judges --model-grader N` runs it on the same
retrieved sources the fitted judge is scored on, so the two are compared the same way.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any, Literal

from adaptive_rag.evaluation.data import read_jsonl
from adaptive_rag.prompts.reading import reading_messages
from adaptive_rag.providers.calls import call_model, parse_json
from adaptive_rag.schema.context import Context
from adaptive_rag.services import Services
from langchain_core.documents import Document
from pydantic import BaseModel

TASK = """Task: judge whether each source above helps answer the question.
For each source, in order, answer:
- "yes": it contains the answer or facts needed for it
- "partial": it is about the same subject but lacks the answer
- "no": it is about something else
Question: {question}
Reply with JSON only: {{"grades": ["yes", "no", ...]}} with {count} grades, one per source."""

SCORES = {"yes": 1.0, "partial": 0.5, "no": 0.0}
KEEP_AT = 0.3
"""The prompted grader kept a source whose label scored at least this (yes or partial)."""


class Grades(BaseModel):
    """The grader's reply: one label per source, in order."""

    grades: list[Literal["yes", "partial", "no"]]


def grade(question: str, sources: list[dict[str, Any]], services: Services) -> dict[str, Any]:
    """Ask the chat model to label each source; return the labels' scores and the call's time."""
    docs = [Document(page_content=s["text"]) for s in sources]
    messages = reading_messages(docs, TASK.format(question=question, count=len(docs)))
    started = time.perf_counter()
    try:
        reply = call_model(services.fast(Context()), messages, Grades)
        labels = parse_json(reply.text, Grades).grades
        scores: list[float] | None = [SCORES[label] for label in labels]
    except Exception:  # an unreadable reply: the node kept every source, unverified
        scores = None
    seconds = time.perf_counter() - started
    if scores is not None and len(scores) != len(docs):
        scores = None
    return {"scores": scores, "seconds": round(seconds, 3)}


def model_grades(chunks: Path, depth: int, limit: int, seed: int = 7) -> Path:
    """Grade a seeded sample of a set's answerable questions' top `depth` sources (resumable)."""
    rows = [r for r in read_jsonl(chunks) if not r["impossible"] and r["gold_doc_ids"]]
    random.Random(seed).shuffle(rows)
    out = chunks.with_name(chunks.name.replace(".chunks.", ".model_grades."))
    done = {r["id"] for r in read_jsonl(out)} if out.exists() else set()
    services = Services(no_web=True)
    with out.open("a", encoding="utf-8") as sink:
        for row in rows[:limit]:
            if row["id"] in done:
                continue
            graded = grade(row["question"], row["sources"][:depth], services)
            record = {"id": row["id"], **graded}
            sink.write(json.dumps(record) + "\n")
            sink.flush()
    return out
