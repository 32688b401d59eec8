"""Compare configurations question by question: what the checks changed, what retrieval cost.

Each table is per (data set, configuration), from the scored records of one run folder.
"""

from __future__ import annotations

from typing import Any

from adaptive_rag.core.grounding import says_sources_lack
from adaptive_rag.evaluation.aggregate import (
    Record,
    by_kind,
    grouped,
    paired,
    percentile,
    summarize,
)


def by_checks(records: list[Record]) -> list[dict[str, Any]]:
    """Count the answers the graph's own checks lost or mended, on answerable questions.

    Compares the first answer written in the scored turn (by `generate` or `answer_general`:
    `first_acc`) with the final one: lost when the first was right and the final is declined or
    wrong, mended when the first was wrong or nothing was written and the final is right. A first
    answer that opens by saying its sources do not hold the answer is a decline in the model's words
    (`core.grounding.unsaid`), never right, whatever words of the gold it repeats. Runs recorded
    before `first_acc` was are left out.
    """
    rows = []
    kept = [r for r in records if "first_acc" in r and not r["impossible"]]
    for (dataset, config), rs in grouped(kept, lambda r: (r["dataset"], r["config"])).items():
        first_right = [
            r["first_acc"] == 1.0 and not says_sources_lack(r.get("first_answer") or "") for r in rs
        ]
        final_right = [r["acc"] == 1.0 for r in rs]
        pairs = list(zip(first_right, final_right, strict=True))
        rows.append(
            {
                "dataset": dataset,
                "config": config,
                "answerable": len(rs),
                "first written right": sum(first_right),
                "final right": sum(final_right),
                "lost to checks": sum(first and not final for first, final in pairs),
                "mended by checks": sum(final and not first for first, final in pairs),
            }
        )
    return rows


def against_full(records: list[Record]) -> list[dict[str, Any]]:
    """p50 and p95 latency and mean tokens of each configuration as multiples of `full`'s.

    Over each configuration's own runs of the data set (the same questions when all finished).
    """
    rows = []
    for dataset, rs in grouped(records, lambda r: r["dataset"]).items():
        configs = grouped(rs, lambda r: r["config"])
        full = configs.get("full")
        if not full:
            continue
        base = _costs(full)
        for config, group in configs.items():
            if config == "full":
                continue
            own = _costs(group)
            rows.append(
                {
                    "dataset": dataset,
                    "config": config,
                    **{f"{key} × full": _ratio(own[key], base[key]) for key in own},
                }
            )
    return rows


def _costs(rs: list[Record]) -> dict[str, float]:
    seconds = [float(r["seconds"]) for r in rs]
    tokens = [float(r["tokens_in"] + r["tokens_out"]) for r in rs]
    return {
        "p50": percentile(seconds, 0.5),
        "p95": percentile(seconds, 0.95),
        "tokens": sum(tokens) / len(tokens) if tokens else 0.0,
    }


def _ratio(value: float, base: float) -> float | str:
    return round(value / base, 2) if base > 0 else "-"


def retrieval_harm(records: list[Record], baseline: str = "direct") -> list[dict[str, Any]]:
    """Wrong answers caused by retrieval: right without it (`direct`), wrong with it.

    Per configuration, the answerable questions (paired by id with the no-retrieval run) it got
    wrong that `direct` got right, as a count and a share of the paired answerable questions.
    """
    rows = []
    for dataset, rs in grouped(records, lambda r: r["dataset"]).items():
        by_id: dict[str, dict[str, Record]] = {}
        for r in rs:
            if not r["impossible"]:
                by_id.setdefault(r["id"], {})[r["config"]] = r
        configs = sorted({c for runs in by_id.values() for c in runs} - {baseline})
        for config in configs:
            pairs = [
                (runs[baseline]["acc"], runs[config]["acc"])
                for runs in by_id.values()
                if baseline in runs and config in runs
            ]
            if not pairs:
                continue
            harmed = sum(1 for base, own in pairs if base == 1.0 and own < 1.0)
            rows.append(
                {
                    "dataset": dataset,
                    "config": config,
                    "answerable": len(pairs),
                    f"{baseline} right": sum(1 for base, _ in pairs if base == 1.0),
                    f"wrong where {baseline} right": harmed,
                    "share": round(harmed / len(pairs), 3),
                }
            )
    return rows


def held_out(records: list[Record]) -> dict[str, list[dict[str, Any]]] | None:
    """Summarise the held-out questions apart from the rest; None when none is held out.

    `summary`: each part (held-out, rest) per configuration; `by_kind`: the held-out part per
    question type; `paired`: adaptive against single-shot and no retrieval on it.
    """
    held = [r for r in records if r.get("held_out")]
    if not held:
        return None
    rest = [r for r in records if not r.get("held_out")]
    parts = [("held-out", held), ("rest", rest)]
    return {
        "summary": [{"part": name, **row} for name, rs in parts for row in summarize(rs)],
        "by_kind": by_kind(held),
        "paired": [row for base in ("single", "direct") for row in paired(held, "adaptive", base)],
    }
