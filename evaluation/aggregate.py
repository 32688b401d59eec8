"""Aggregate scored runs: per configuration, per route and type, and paired against a baseline."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np
from adaptive_rag.evaluation.metrics import ranking_scores

Record = dict[str, Any]
BOOTSTRAP_SAMPLES = 10_000


def percentile(values: list[float], q: float) -> float:
    """Return the q-quantile by nearest rank (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def mean(values: list[float]) -> float:
    """Return the mean rounded to three places (0 for no values)."""
    return round(sum(values) / len(values), 3) if values else 0.0


def grouped(records: list[Record], key: Callable[[Record], Any]) -> dict[Any, list[Record]]:
    """Group records by a key, in the order of the keys' text."""
    groups: dict[Any, list[Record]] = {}
    for r in records:
        groups.setdefault(key(r), []).append(r)
    return dict(sorted(groups.items(), key=lambda item: str(item[0])))


def quality(rs: list[Record]) -> dict[str, Any]:
    """Acc, EM, F1 and both decline errors of a group of scored records."""
    answerable = [r for r in rs if not r["impossible"]]
    impossible = [r for r in rs if r["impossible"]]
    answered = [r for r in rs if not r["declined"]]
    return {
        "n": len(rs),
        "acc": mean([r["acc"] for r in rs]),
        "em": mean([r["em"] for r in rs]),
        "f1": mean([r["f1"] for r in rs]),
        "declined_unanswerable": f"{sum(r['declined'] for r in impossible)}/{len(impossible)}",
        "declined_answerable": f"{sum(r['declined'] for r in answerable)}/{len(answerable)}",
        "in_language": mean([float(r["language_ok"]) for r in answered]),
        "cited": mean([float(r["cited"]) for r in answered]),
        "citations_supported": mean(
            [
                float(r["citations_supported"])
                for r in answered
                if r.get("citations_supported") is not None
            ]
        ),
    }


def retrieval(rs: list[Record]) -> dict[str, float]:
    """Hit@4, AllGold@4 and MRR@10 of the documents each answer used."""
    scored = [
        ranking_scores(r["used_doc_ids"], set(r["gold_doc_ids"]))
        for r in rs
        if not r["impossible"] and r["gold_doc_ids"]
    ]
    return {key: mean([s[key] for s in scored]) for key in ("hit@4", "allgold@4", "mrr@10")}


def prompt_computed(runs: Iterable[Mapping[str, Any]]) -> float | None:
    """Share of prompt tokens actually computed (the rest a prefix cache served); None if none."""
    rows = list(runs)
    sent = sum(r["tokens_in"] for r in rows)
    reused = sum(r.get("tokens_cached", 0) for r in rows)  # runs before it was counted: 0
    return round(1 - reused / sent, 2) if sent else None


def cost(rs: list[Record]) -> dict[str, Any]:
    """Model calls, tokens (and the share of prompt tokens actually computed) and latency."""
    tokens = [r["tokens_in"] + r["tokens_out"] for r in rs]
    computed = prompt_computed(rs)
    return {
        "calls_median": percentile([r["model_calls"] for r in rs], 0.5),
        "tokens_mean": round(sum(tokens) / max(len(rs), 1)),
        "prompt_computed": "-" if computed is None else computed,
        "p50_s": round(percentile([r["seconds"] for r in rs], 0.5), 2),
        "p95_s": round(percentile([r["seconds"] for r in rs], 0.95), 2),
    }


def summarize(records: list[Record]) -> list[dict[str, Any]]:
    """Aggregate per (data set, configuration): quality, documents used, cost."""
    return [
        {"dataset": dataset, "config": config, **quality(rs), **retrieval(rs), **cost(rs)}
        for (dataset, config), rs in grouped(records, lambda r: (r["dataset"], r["config"])).items()
    ]


def by_route(records: list[Record]) -> list[dict[str, Any]]:
    """Quality and cost of the adaptive graph per route."""
    adaptive = [r for r in records if r["config"] == "adaptive"]
    return [
        {"dataset": d, "route": route, **quality(rs), **cost(rs)}
        for (d, route), rs in grouped(adaptive, lambda r: (r["dataset"], r["route"])).items()
    ]


def by_node(records: list[Record]) -> list[dict[str, Any]]:
    """Where each configuration's time goes, per route: each node's median and share of the time."""
    rows = []
    timed = [r for r in records if r.get("node_seconds")]  # runs before it was recorded: none
    groups = grouped(timed, lambda r: (r["dataset"], r["config"], r["route"]))
    for (dataset, config, route), rs in groups.items():
        timings: dict[str, list[float]] = {}
        for r in rs:
            for node, seconds in r["node_seconds"].items():
                timings.setdefault(node, []).append(seconds)
        total = sum(sum(times) for times in timings.values())
        for node, times in sorted(timings.items(), key=lambda item: -sum(item[1])):
            rows.append(
                {
                    "dataset": dataset,
                    "config": config,
                    "route": route,
                    "node": node,
                    "runs": f"{len(times)}/{len(rs)}",
                    "p50_s": round(percentile(times, 0.5), 2),
                    "share": round(sum(times) / total, 2) if total else 0.0,
                }
            )
    return rows


def by_kind(records: list[Record]) -> list[dict[str, Any]]:
    """Acc per question type (or answerable / unanswerable) and configuration."""
    rows = []
    for (dataset, kind), rs in grouped(records, lambda r: (r["dataset"], r["kind"])).items():
        row: dict[str, Any] = {"dataset": dataset, "kind": kind}
        for config, group in grouped(rs, lambda r: r["config"]).items():
            row[f"acc {config}"] = f"{mean([r['acc'] for r in group]):.3f} (n={len(group)})"
        rows.append(row)
    return rows


def paired(
    records: list[Record], config: str = "adaptive", baseline: str = "single", seed: int = 0
) -> list[dict[str, Any]]:
    """Per data set: wins and losses on the same questions, and a bootstrap 95% interval.

    The interval is of the mean Acc difference (config minus baseline), resampling questions;
    one that crosses zero means the sample cannot tell the two apart.
    """
    rows = []
    for dataset, rs in grouped(records, lambda r: r["dataset"]).items():
        by_id: dict[str, dict[str, Record]] = {}
        for r in rs:
            by_id.setdefault(r["id"], {})[r["config"]] = r
        pairs = [
            (v[config]["acc"], v[baseline]["acc"])
            for v in by_id.values()
            if config in v and baseline in v
        ]
        if not pairs:
            continue
        diffs = np.array([a - b for a, b in pairs], dtype=float)
        low, high = bootstrap_interval(diffs, seed)
        rows.append(
            {
                "dataset": dataset,
                "pair": f"{config} vs {baseline}",
                "n": len(pairs),
                "acc": mean([a for a, _ in pairs]),
                "acc baseline": mean([b for _, b in pairs]),
                "difference": round(float(diffs.mean()), 3),
                "wins": int((diffs > 0).sum()),
                "losses": int((diffs < 0).sum()),
                "95% interval": f"[{low:+.3f}, {high:+.3f}]",
                "verdict": "better" if low > 0 else "worse" if high < 0 else "within noise",
            }
        )
    return rows


def bootstrap_interval(diffs: np.ndarray[Any, Any], seed: int = 0) -> tuple[float, float]:
    """Return the percentile bootstrap 95% interval of the mean of paired differences."""
    from scipy.stats import bootstrap

    if len(diffs) < 2 or float(diffs.min()) == float(diffs.max()):
        value = float(diffs.mean()) if len(diffs) else 0.0
        return value, value
    result = bootstrap(
        (diffs,),
        np.mean,
        n_resamples=BOOTSTRAP_SAMPLES,
        confidence_level=0.95,
        method="percentile",
        random_state=np.random.default_rng(seed),
    )
    return float(result.confidence_interval.low), float(result.confidence_interval.high)
