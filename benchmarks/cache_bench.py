"""How alike must two questions be to share a cached answer? Measured as false hits on the sets."""

from __future__ import annotations

import time
from typing import Any

from adaptive_rag.evaluation.metrics import tokens
from adaptive_rag.evaluation.sets import load_eval_set
from adaptive_rag.knowledge.answer_cache import normalise
from adaptive_rag.knowledge.embeddings import load_embeddings

THRESHOLDS = (0.9, 0.95, 0.97, 0.98, 0.99, 1.0)


def _differ(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two questions want different answers (a shared cache entry would be wrong)."""
    if a["impossible"] or b["impossible"]:
        return bool(a["impossible"] != b["impossible"])
    golds = {" ".join(tokens(x)) for x in a["answers"]}
    return not golds & {" ".join(tokens(x)) for x in b["answers"]}


def _differing_pairs(questions: list[dict[str, Any]], vectors: Any) -> list[tuple[float, int, int]]:
    """Return (cosine, i, j) for every pair of questions that want different answers."""
    unit = vectors / (vectors**2).sum(axis=1, keepdims=True) ** 0.5
    similar = unit @ unit.T
    return [
        (float(similar[i, j]), i, j)
        for i in range(len(questions))
        for j in range(i + 1, len(questions))
        if _differ(questions[i], questions[j])
    ]


def measure(
    names: list[str], closest: int, embedding_model: str = "auto"
) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    """Per set: false hits at each threshold, and the `closest` most alike differing pairs."""
    import numpy as np

    embeddings = load_embeddings(embedding_model)
    rows, pairs_to_read = [], {}
    for name in names:
        questions = load_eval_set(name).questions
        started = time.perf_counter()
        vectors = np.array([embeddings.embed_query(q["question"]) for q in questions])
        per_question = (time.perf_counter() - started) / max(len(questions), 1)
        pairs = _differing_pairs(questions, vectors)
        text = [normalise(q["question"]) for q in questions]
        row: dict[str, Any] = {
            "set": name,
            "questions": len(questions),
            "embed_ms": round(per_question * 1000, 1),
            "max_sim_different_answers": round(max(s for s, _, _ in pairs), 3),
        }
        for t in THRESHOLDS:
            merged = (
                sum(1 for _, i, j in pairs if text[i] == text[j])
                if t >= 1.0
                else sum(1 for s, _, _ in pairs if s >= t)
            )
            row[f"false hits at {t}"] = merged
        rows.append(row)
        pairs_to_read[name] = [
            {"sim": round(s, 3), "a": questions[i]["question"], "b": questions[j]["question"]}
            for s, i, j in sorted(pairs, reverse=True)[:closest]
        ]
    return rows, pairs_to_read
