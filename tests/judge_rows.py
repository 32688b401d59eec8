"""Labelled retrievals as `judge_data.collect` writes them, for the relevance judge's fits."""

from __future__ import annotations

import json
import random
from pathlib import Path


def write_chunks(path: Path, name: str, n: int) -> Path:
    """Write n answerable questions of set `name`, four sources each, gold first; return the file."""
    rng = random.Random(n)
    rows = []
    for i in range(n):
        gold = f"g{i}"
        sources = []
        for rank in range(1, 5):
            is_gold = rank == 1 or (rank == 2 and rng.random() < 0.3)
            text = f"Widget {i} weighs {i} kg." if is_gold else f"Gadget {rank} is blue."
            sources.append(
                {
                    "doc_id": gold if is_gold else f"o{i}-{rank}",
                    "text": text,
                    "gold": is_gold,
                    "rank": rank,
                    "vector_rank": rank,
                    "vector_score": 0.9 - 0.05 * rank + (0.05 if is_gold else 0.0),
                    "keyword_rank": rank if is_gold else 0,
                    "keyword_score": 5.0 if is_gold else 0.0,
                }
            )
        rows.append(
            {
                "dataset": name,
                "id": str(i),
                "question": f"How much does Widget {i} weigh?",
                "impossible": False,
                "kind": "answerable",
                "gold_doc_ids": [gold],
                "sources": sources,
            }
        )
    out = path / f"{name}.chunks.jsonl"
    out.write_text("\n".join(json.dumps(r) for r in rows))
    return out
