"""Reciprocal rank fusion: merge rankings from different searches (Cormack et al., k=60)."""

from __future__ import annotations

RRF_K = 60


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
