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


def false_hits(names: list[str], embedding_model: str = "auto") -> list[dict[str, Any]]:
    """Per set: pairs of questions wanting different answers that a threshold would merge."""
    import numpy as np  # noqa: PLC0415 - a chromadb dependency

    embeddings = load_embeddings(embedding_model)
    rows = []
    for name in names:
        questions = load_eval_set(name).questions
        started = time.perf_counter()
        vectors = np.array([embeddings.embed_query(q["question"]) for q in questions])
        per_question = (time.perf_counter() - started) / max(len(questions), 1)
        pairs = _differing_pairs(questions, vectors)
        same_words = sum(
            1
            for _, i, j in pairs
            if normalise(questions[i]["question"]) == normalise(questions[j]["question"])
        )
        row: dict[str, Any] = {
            "set": name,
            "questions": len(questions),
            "embed_ms": round(per_question * 1000, 1),
            "max_sim_different_answers": round(max(s for s, _, _ in pairs), 3),
        }
        for t in THRESHOLDS:
            merged = same_words if t >= 1.0 else sum(1 for s, _, _ in pairs if s >= t)
            row[f"false hits at {t}"] = merged
        rows.append(row)
    return rows


def closest_pairs(name: str, n: int = 5, embedding_model: str = "auto") -> list[dict[str, Any]]:
    """List the most alike questions of a set that want different answers, to read."""
    import numpy as np  # noqa: PLC0415

    embeddings = load_embeddings(embedding_model)
    questions = load_eval_set(name).questions
    vectors = np.array([embeddings.embed_query(q["question"]) for q in questions])
    pairs = sorted(_differing_pairs(questions, vectors), reverse=True)[:n]
    return [
        {"sim": round(s, 3), "a": questions[i]["question"], "b": questions[j]["question"]}
        for s, i, j in pairs
    ]
