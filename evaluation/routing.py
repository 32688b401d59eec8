"""Routing accuracy of classify against the Adaptive-RAG silver labels (A/B/C)."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from adaptive_rag.evaluation.sets import pick, routing_rows
from adaptive_rag.nodes.classify import classify
from adaptive_rag.schema.context import Context
from adaptive_rag.services import Services
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever

LABELS = {"A": "general", "B": "simple", "C": "complex"}
CLASSES = ("general", "simple", "complex")
KB = "Wikipedia articles on people, films, places, history and science"


def run_routing(
    services: Services, limit: int = 0, sample: bool = False, seed: int = 13, progress: bool = True
) -> dict[str, Any]:
    """Classify each question as the graph would; compare with the silver label."""
    from tqdm import tqdm

    rows = pick(routing_rows(), limit, sample, seed)
    ctx = Context(kb_description=KB)
    if services.retriever is None:  # the routing set has no corpus: the knowledge-base check
        services = replace(services, retriever=NoCorpus())  # must not read a user's collection
    confusion = {gold: dict.fromkeys((*CLASSES, "realtime", "follow_up"), 0) for gold in CLASSES}
    seconds, methods = [], {"rule": 0, "fitted": 0, "model": 0, "cache": 0, "default": 0}
    for row in tqdm(rows, desc="routing", disable=not progress):
        state: Any = {"standalone": row["question"], "query": row["question"], "messages": []}
        started = time.perf_counter()
        route = classify(state, ctx, services).get("route")
        assert route is not None, "classify always decides a route"
        seconds.append(time.perf_counter() - started)
        methods[route["method"]] += 1
        confusion[LABELS[row["label"]]][route["category"]] += 1
    return summarize_routing(confusion, seconds, methods)


class NoCorpus(BaseRetriever):
    """A knowledge base with nothing in it."""

    def _get_relevant_documents(self, query: str, *, run_manager: Any = None) -> list[Document]:
        return []


def summarize_routing(
    confusion: dict[str, dict[str, int]], seconds: list[float], methods: dict[str, int]
) -> dict[str, Any]:
    """Accuracy, per-class precision/recall/F1, macro-F1, and recall of needed retrievals."""
    total = sum(sum(row.values()) for row in confusion.values())
    correct = sum(confusion[c][c] for c in CLASSES)
    per_class = {}
    for c in CLASSES:
        tp = confusion[c][c]
        predicted = sum(confusion[g][c] for g in CLASSES)
        actual = sum(confusion[c].values())
        p = tp / predicted if predicted else 0.0
        r = tp / actual if actual else 0.0
        per_class[c] = {
            "precision": round(p, 3),
            "recall": round(r, 3),
            "f1": round(2 * p * r / (p + r), 3) if p + r else 0.0,
            "n": actual,
        }
    needs = [g for g in ("simple", "complex")]
    needed = sum(sum(confusion[g].values()) for g in needs)
    retrieved = sum(sum(v for k, v in confusion[g].items() if k != "general") for g in needs)
    return {
        "n": total,
        "accuracy": round(correct / total, 3) if total else 0.0,
        "macro_f1": round(sum(pc["f1"] for pc in per_class.values()) / len(CLASSES), 3),
        "needed_retrieval_recall": round(retrieved / needed, 3) if needed else 0.0,
        "per_class": per_class,
        "confusion": confusion,
        "methods": methods,
        "median_ms": round(1000 * sorted(seconds)[len(seconds) // 2], 1) if seconds else 0.0,
    }
