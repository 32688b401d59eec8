"""Measure assess's odds on questions kept apart from the evaluation sample, to set decline_below.

The threshold is chosen on these questions only: the sample `eval run` scores (seed 13) is left
out, so the figures reported for it are not fitted to it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from adaptive_rag.evaluation.harness import eval_knowledge_base, forget_prompt_cache
from adaptive_rag.evaluation.sets import load_eval_set, pick
from adaptive_rag.knowledge.retriever import HybridRetriever
from adaptive_rag.knowledge.sources import reading_messages, retrieve
from adaptive_rag.prompts import assess
from adaptive_rag.providers.chat import call_yes_no
from adaptive_rag.schema.context import Context
from adaptive_rag.services import Services

EVAL_SEED, EVAL_LIMIT = 13, 40
"""The sample `eval run --limit 40` scores, which threshold-setting must not see."""
THRESHOLDS = tuple(round(0.30 + 0.02 * i, 2) for i in range(16))


def measure_support(
    dataset: str,
    out_dir: Path,
    limit: int = 60,
    seed: int = 7,
    *,
    held_out: int = EVAL_LIMIT,
    corpus: Path | None = None,
    services: Services | None = None,
    progress: bool = True,
) -> list[dict[str, Any]]:
    """Ask assess's question of `limit` questions outside the evaluation sample; keep the odds."""
    from tqdm import tqdm  # noqa: PLC0415

    data = load_eval_set(dataset, corpus)
    out_dir.mkdir(parents=True, exist_ok=True)
    ctx = Context()
    kb = eval_knowledge_base(data, out_dir, ctx.embedding_model, progress)
    retriever = HybridRetriever(kb=kb, k=ctx.k, reader=ctx.reader())
    evaluated = {q["id"] for q in pick(data.questions, held_out, True, EVAL_SEED)}
    questions = [q for q in pick(data.questions, 0, True, seed) if q["id"] not in evaluated]
    services = services or Services(no_web=True)
    model = services.fast(ctx)
    rows = []
    for q in tqdm(questions[:limit], desc=f"odds {data.name}", disable=not progress):
        docs = retrieve(retriever, q["question"], ctx.k)
        forget_prompt_cache(services, ctx)
        task = assess.TASK.format(question=q["question"])
        reply = call_yes_no(model, reading_messages(docs, task))
        rows.append(
            {"id": q["id"], "kind": q["kind"], "impossible": q["impossible"], "support": reply.yes}
        )
    (out_dir / "support.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return rows


def decline_table(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Both error types at each threshold: unanswerable kept, answerable declined."""
    scored = [r for r in rows if r["support"] is not None]
    unanswerable = [r["support"] for r in scored if r["impossible"]]
    answerable = [r["support"] for r in scored if not r["impossible"]]
    return [
        {
            "decline_below": t,
            "unanswerable_declined": f"{sum(s < t for s in unanswerable)}/{len(unanswerable)}",
            "answerable_declined": f"{sum(s < t for s in answerable)}/{len(answerable)}",
            "share_answerable_declined": sum(s < t for s in answerable) / max(len(answerable), 1),
        }
        for t in THRESHOLDS
    ]


def separation(rows: list[dict[str, Any]]) -> float | None:
    """Return the AUC of the odds: how often an answerable question outscores an unanswerable."""
    scored = [r for r in rows if r["support"] is not None]
    low = [float(r["support"]) for r in scored if r["impossible"]]
    high = [float(r["support"]) for r in scored if not r["impossible"]]
    if not low or not high:
        return None
    wins = sum((h > u) + 0.5 * (h == u) for h in high for u in low)
    return round(float(wins) / (len(low) * len(high)), 3)


def highest_threshold(table: list[dict[str, Any]], most_wrong: float = 0.10) -> float:
    """Return the highest threshold that declines at most `most_wrong` of answerable questions."""
    fitting = [
        row["decline_below"] for row in table if row["share_answerable_declined"] <= most_wrong
    ]
    return max(fitting, default=0.0)
