"""Turn evaluation results into JSON, a Markdown report and plots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from adaptive_rag.evaluation.data import read_jsonl
from adaptive_rag.evaluation.harness import by_route, summarize
from adaptive_rag.evaluation.tables import table

PAPER_ROUTER_ACCURACY = 0.5452


def goals(summary: list[dict[str, Any]], routing: dict[str, Any] | None) -> list[str]:
    """Check the figures against the targets: cheaper than full, no worse than single-shot."""
    lines = []
    by = {(r["dataset"], r["config"]): r for r in summary}
    for dataset in sorted({r["dataset"] for r in summary}):
        ada, full, single = (by.get((dataset, c)) for c in ("adaptive", "full", "single"))
        if ada and full:
            tokens = 1 - ada["tokens_mean"] / max(full["tokens_mean"], 1)
            latency = 1 - ada["p50_s"] / max(full["p50_s"], 1e-9)
            df1 = 100 * (ada["f1"] - full["f1"])
            lines.append(
                f"- {dataset}: vs full pipeline: {tokens:+.0%} tokens saved (goal ≥ 40%),"
                f" {latency:+.0%} median latency saved (goal ≥ 50%),"
                f" F1 {df1:+.1f} points (goal ≥ -2)"
            )
        if ada and single:
            df1 = 100 * (ada["f1"] - single["f1"])
            lines.append(f"- {dataset}: vs single-shot RAG: F1 {df1:+.1f} points (goal ≥ 0)")
    if routing:
        lines.append(
            f"- routing accuracy {routing['accuracy']:.1%} (paper's trained classifier"
            f" {PAPER_ROUTER_ACCURACY:.1%}); needed-retrieval recall"
            f" {routing['needed_retrieval_recall']:.1%}"
        )
    return lines


def plots(
    records: list[dict[str, Any]], summary: list[dict[str, Any]], out_dir: Path
) -> list[Path]:
    """Cost against quality per configuration, and latency per route (PNG)."""
    import matplotlib  # noqa: PLC0415

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    made = []
    fig, ax = plt.subplots(figsize=(6, 4))
    markers = {"adaptive": "o", "full": "s", "single": "^"}
    for row in summary:
        ax.scatter(
            row["tokens_mean"],
            row["f1"],
            marker=markers.get(row["config"], "x"),
            s=60,
            label=f"{row['config']} / {row['dataset']}",
        )
        ax.annotate(
            row["config"],
            (row["tokens_mean"], row["f1"]),
            fontsize=7,
            xytext=(4, 4),
            textcoords="offset points",
        )
    ax.set_xlabel("tokens per question (mean)")
    ax.set_ylabel("answer F1")
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


def build_report(out_dir: Path, title: str = "Evaluation") -> Path:
    """Write summary.json and report.md (and plots) from what the run folder holds."""
    results = out_dir / "results.jsonl"
    records = read_jsonl(results) if results.exists() else []
    routing_path, canard_path = out_dir / "routing.json", out_dir / "canard.json"
    routing = json.loads(routing_path.read_text()) if routing_path.exists() else None
    canard = json.loads(canard_path.read_text()) if canard_path.exists() else None
    summary = summarize(records)
    routes = by_route(records)
    (out_dir / "summary.json").write_text(
        json.dumps(
            {"summary": summary, "by_route": routes, "routing": routing, "canard": canard},
            ensure_ascii=False,
            indent=2,
        )
    )
    parts = [f"# {title}", ""]
    if summary:
        parts += ["## Answers, retrieval and cost", "", table(summary), ""]
        parts += ["## Adaptive graph by route", "", table(routes), ""]
    if routing:
        rows = [{"gold \\ routed": g, **routing["confusion"][g]} for g in routing["confusion"]]
        parts += [
            "## Routing",
            "",
            f"accuracy {routing['accuracy']}, macro-F1 {routing['macro_f1']},"
            f" needed-retrieval recall {routing['needed_retrieval_recall']},"
            f" n={routing['n']}, decided by {routing['methods']}",
            "",
            table(rows),
            "",
        ]
    if canard:
        parts += ["## Follow-up rewriting (CANARD)", "", table([canard]), ""]
    parts += ["## Against the goals", "", *goals(summary, routing), ""]
    if records:
        images = plots(records, summary, out_dir)
        parts += ["## Plots", "", *[f"![{p.stem}]({p.name})" for p in images], ""]
    report = out_dir / "report.md"
    report.write_text("\n".join(parts))
    return report
