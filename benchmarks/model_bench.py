"""Benchmark the embedded chat model node by node, with the graph's own prompts."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from adaptive_rag.evaluation.metrics import f1
from adaptive_rag.evaluation.rewrite_eval import to_messages
from adaptive_rag.evaluation.routing import LABELS, NoCorpus
from adaptive_rag.evaluation.sets import canard_rows, retrieval_sets, routing_rows
from adaptive_rag.evaluation.tables import table
from adaptive_rag.nodes.classify import classify
from adaptive_rag.nodes.generate import generate
from adaptive_rag.nodes.rewrite_with_history import rewrite_with_history
from adaptive_rag.providers.local_model import load_local_model
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.updates import Update
from adaptive_rag.services import Services
from langchain_core.documents import Document


class Task:
    """Latency, tokens, parse failures and a quality figure for one node type."""

    def __init__(self, name: str, quality: str) -> None:
        self.name, self.quality_name = name, quality
        self.seconds: list[float] = []
        self.tokens_in: list[int] = []
        self.tokens_out: list[int] = []
        self.failures = 0
        self.quality: list[float] = []

    def run(self, node: Callable[..., Update], state: dict[str, Any], services: Services) -> Update:
        """Call a node once and record what it cost."""
        started = time.perf_counter()
        update = node(state, Context(), services)
        self.seconds.append(time.perf_counter() - started)
        self.tokens_in.append(int(update.get("tokens_in") or 0))
        self.tokens_out.append(int(update.get("tokens_out") or 0))
        return update

    def row(self) -> dict[str, Any]:
        """Summarise as a table row."""
        n = len(self.seconds)
        return {
            "node": self.name,
            "calls": n,
            "median_s": round(statistics.median(self.seconds), 2) if n else "-",
            "median_tokens_in": int(statistics.median(self.tokens_in)) if n else "-",
            "median_tokens_out": int(statistics.median(self.tokens_out)) if n else "-",
            "parse_failures": f"{self.failures}/{n}",
            "quality": f"{self.quality_name} {statistics.mean(self.quality):.2f}"
            if self.quality
            else "-",
        }


def run(limit: int, seed: int = 3) -> str:
    """Run every task on `limit` items and return a Markdown report."""
    started = time.perf_counter()
    model = load_local_model()
    load_s = time.perf_counter() - started
    services = Services(chat_model=model, no_web=True)
    rng = random.Random(seed)
    tasks = [
        _classify(services, rng, limit),
        _generate(services, rng, limit),
        _rewrite(services, rng, limit),
    ]
    return f"Model load: {load_s:.1f}s\n\n" + table([t.row() for t in tasks]) + "\n"


def _classify(services: Services, rng: random.Random, limit: int) -> Task:
    task = Task("classify (model path)", "accuracy vs A/B/C")
    # not the user's default knowledge base, whose search would route some questions itself
    empty = replace(services, retriever=NoCorpus())
    rows = routing_rows()
    rng.shuffle(rows)
    for row in rows[:limit]:
        q = row["question"]
        update = task.run(classify, {"standalone": q, "query": q, "messages": []}, empty)
        route = update.get("route")
        assert route is not None, "classify always decides a route"
        task.failures += route["method"] == "default"
        task.quality.append(float(route["category"] == LABELS[row["label"]]))
    return task


def _generate(services: Services, rng: random.Random, limit: int) -> Task:
    gen = Task("generate (rag)", "answer F1")
    squad = next(s for s in retrieval_sets(["squad2"]))
    docs = {d["doc_id"]: d for d in squad.corpus}
    questions = list(squad.questions)
    rng.shuffle(questions)
    for q in questions[:limit]:
        gold = docs[q["gold_doc_ids"][0]]
        state: dict[str, Any] = {
            "standalone": q["question"],
            "documents": [Document(page_content=gold["text"][:1200], metadata={"title": "gold"})],
            "route": {"category": "simple"},
        }
        answer = gen.run(generate, state, services)
        gen.failures += answer.get("mode") == "none"
        gen.quality.append(f1(answer["answer"], q["answers"]))
    return gen


def _rewrite(services: Services, rng: random.Random, limit: int) -> Task:
    task = Task("rewrite_with_history", "F1 vs gold rewrite")
    rows = canard_rows()
    rng.shuffle(rows)
    for row in rows[:limit]:
        messages = to_messages(row["history"][-6:], row["question"])
        update = task.run(
            rewrite_with_history, {"query": row["question"], "messages": messages}, services
        )
        task.failures += "standalone" not in update
        task.quality.append(f1(update.get("standalone", row["question"]), [row["rewrite"]]))
    return task
