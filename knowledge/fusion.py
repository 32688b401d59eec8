"""Reciprocal rank fusion (Cormack et al., k=60): one ranking from several.

It merges the rankings of the retriever's channels and of a question's several searches.
"""

from __future__ import annotations

from adaptive_rag.core.text import doc_key
from langchain_core.documents import Document

RRF_K = 60
"""The constant under each rank: a larger one flattens the weight of the top ranks."""


def reciprocal_rank_fusion(
    rankings: list[list[str]], k: int = RRF_K, weights: list[float] | None = None
) -> list[tuple[str, float]]:
    """Fuse ranked id lists: score(id) = sum of weight / (k + rank); ties keep first-seen order.

    `weights`: one per ranking (None: 1 each).
    """
    scores: dict[str, float] = {}
    for ranking, weight in zip(rankings, weights or [1.0] * len(rankings), strict=True):
        for rank, item in enumerate(dict.fromkeys(ranking), start=1):
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
    return sorted(scores.items(), key=lambda pair: -pair[1])


def fuse_documents(results: list[list[Document]], k: int) -> list[Document]:
    """Fuse several ranked document lists by reciprocal rank, keeping the top k."""
    if len(results) == 1:
        return results[0][:k]
    by_key = {doc_key(d): d for docs in results for d in docs}
    fused = reciprocal_rank_fusion([[doc_key(d) for d in docs] for docs in results])
    return [by_key[key] for key, _ in fused[:k]]
