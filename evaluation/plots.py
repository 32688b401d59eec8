"""Plots of an evaluation run: cost against quality, and latency by route (PNG)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def plots(
    records: list[dict[str, Any]], summary: list[dict[str, Any]], out_dir: Path
) -> list[Path]:
    """Cost against quality per configuration, and latency per route (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    made = []
    fig, ax = plt.subplots(figsize=(6, 4))
    markers = {"adaptive": "o", "full": "s", "single": "^"}
    for row in summary:
        ax.scatter(
            row["tokens_mean"],
            row["acc"],
            marker=markers.get(row["config"], "x"),
            s=60,
            label=f"{row['config']} / {row['dataset']}",
        )
        ax.annotate(
            row["config"],
            (row["tokens_mean"], row["acc"]),
            fontsize=7,
            xytext=(4, 4),
            textcoords="offset points",
        )
    ax.set_xlabel("tokens per question (mean)")
    ax.set_ylabel("Acc (gold answer contained; declines on unanswerable)")
    ax.set_title("Cost against quality")
    ax.legend(fontsize=6, loc="best")
    fig.tight_layout()
    made.append(out_dir / "cost_vs_quality.png")
    fig.savefig(made[-1], dpi=120)
    plt.close(fig)

    routes: dict[str, list[float]] = {}
    for r in records:
        key = r["route"] if r["config"] == "adaptive" else f"[{r['config']}]"
        routes.setdefault(key, []).append(r["seconds"])
    if routes:
        fig, ax = plt.subplots(figsize=(6, 4))
        names = sorted(routes)
        ax.boxplot([routes[n] for n in names], showfliers=True)
        ax.set_xticks(range(1, len(names) + 1), names, rotation=20, fontsize=8)
        ax.set_ylabel("seconds per question")
        ax.set_title("Latency by route (adaptive) and by baseline")
        fig.tight_layout()
        made.append(out_dir / "latency_by_route.png")
        fig.savefig(made[-1], dpi=120)
        plt.close(fig)
    return made
