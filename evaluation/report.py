"""Turn evaluation results into JSON, a Markdown report and plots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from adaptive_rag.evaluation.aggregate import by_kind, by_node, by_route, paired, summarize
from adaptive_rag.evaluation.data import read_jsonl
from adaptive_rag.evaluation.labels import derive_labels, judge_router
from adaptive_rag.evaluation.tables import table

PAPER_ROUTER_ACCURACY = 0.5452


def goals(
    summary: list[dict[str, Any]], pairs: list[dict[str, Any]], routing: dict[str, Any] | None
) -> list[str]:
    """Check the figures against the targets: better than single-shot, honest, cheaper than full."""
    lines = []
    by = {(r["dataset"], r["config"]): r for r in summary}
    for row in pairs:
        lines.append(
            f"- {row['dataset']}: Acc {row['pair']} {row['difference']:+.3f}"
            f" ({row['wins']} wins, {row['losses']} losses, 95% interval {row['95% interval']}:"
            f" {row['verdict']})"
        )
    for dataset in sorted({r["dataset"] for r in summary}):
        ada, full, single = (by.get((dataset, c)) for c in ("adaptive", "full", "single"))
        if ada and full:
            tokens = 1 - ada["tokens_mean"] / max(full["tokens_mean"], 1)
            lines.append(f"- {dataset}: vs full pipeline: {tokens:+.0%} tokens saved")
        if ada and single:
            ratio = ada["p50_s"] / max(single["p50_s"], 1e-9)
            lines.append(
                f"- {dataset}: adaptive p50 latency {ratio:.2f}× single-shot (goal ≤ 1.1×)"
            )
    adaptive = [r for r in summary if r["config"] == "adaptive"]
    if adaptive:
        declined = [_fraction(r["declined_unanswerable"]) for r in adaptive]
        wrong = [_fraction(r["declined_answerable"]) for r in adaptive]
        lines.append(
            f"- declines (adaptive, pooled): {_pooled(declined)} of unanswerable questions"
            f" declined (goal ≥ 37%), {_pooled(wrong)} of answerable wrongly declined (goal ≤ 3%)"
        )
    if routing:
        lines.append(
            f"- routing accuracy {routing['accuracy']:.1%} (paper's trained classifier"
            f" {PAPER_ROUTER_ACCURACY:.1%}); needed-retrieval recall"
            f" {routing['needed_retrieval_recall']:.1%}"
        )
    return lines


def _derived_routing(judged: dict[str, Any]) -> list[str]:
    """Report the router against labels derived from the three fixed strategies (labels.jsonl)."""
    rows = [{"label \\ routed": g, **judged["confusion"][g]} for g in judged["confusion"]]
    return [
        "## Routing against derived labels (A: no retrieval right, B: single-step, C: multi-step)",
        "",
        f"{judged['labelled']} of {judged['n']} questions labelled {judged['labels']};"
        f" accuracy {judged['accuracy']}, macro-F1 {judged['macro_f1']} (paper's classifier"
        f" {PAPER_ROUTER_ACCURACY:.1%}), needed-retrieval recall"
        f" {judged['needed_retrieval_recall']}; regret (adaptive wrong, another strategy right):"
        f" {len(judged['regret'])} questions",
        "",
        table(rows) if rows else "(no labelled questions)",
        "",
        table(judged["strategies"]),
        "",
    ]


def _fraction(text: str) -> tuple[int, int]:
    hit, total = text.split("/")
    return int(hit), int(total)


def _pooled(parts: list[tuple[int, int]]) -> str:
    hit, total = sum(p[0] for p in parts), sum(p[1] for p in parts)
    return f"{hit}/{total} ({hit / total:.0%})" if total else "0/0"


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


def _answers(
    summary: list[dict[str, Any]],
    pairs: list[dict[str, Any]],
    kinds: list[dict[str, Any]],
    routes: list[dict[str, Any]],
) -> list[str]:
    """Report answers and cost, the paired comparison, and tables by question type and route."""
    parts: list[str] = []
    parts += ["## Answers, retrieval and cost", "", table(summary), ""]
    if pairs:
        parts += [
            "## Paired against single-shot (same questions)",
            "",
            table(pairs),
            "",
            "An interval that crosses zero means this sample cannot tell the two apart;"
            " a difference of one question is noise.",
            "",
        ]
    parts += ["## By question type", "", table(kinds), ""]
    parts += ["## Adaptive graph by route", "", table(routes), ""]
    return parts


def _write_summary(out_dir: Path, *parts: Any) -> None:
    """Write every table of the report as JSON (summary.json)."""
    names = (
        "summary",
        "paired",
        "by_route",
        "by_kind",
        "routing",
        "derived_routing",
        "canard",
        "by_node",
    )
    (out_dir / "summary.json").write_text(
        json.dumps(dict(zip(names, parts, strict=True)), ensure_ascii=False, indent=2)
    )


def build_report(out_dir: Path, title: str = "Evaluation") -> Path:
    """Write summary.json and report.md (and plots) from what the run folder holds."""
    results = out_dir / "results.jsonl"
    records = read_jsonl(results) if results.exists() else []
    routing_path, canard_path = out_dir / "routing.json", out_dir / "canard.json"
    followups_path = out_dir / "followups.json"
    followups = json.loads(followups_path.read_text()) if followups_path.exists() else None
    routing = json.loads(routing_path.read_text()) if routing_path.exists() else None
    canard = json.loads(canard_path.read_text()) if canard_path.exists() else None
    summary = summarize(records)
    routes = by_route(records)
    kinds = by_kind(records)
    configs = dict.fromkeys(r["config"] for r in records if r["config"] != "single")
    pairs = [row for config in configs for row in paired(records, config)]  # each vs single-shot
    labels = derive_labels(records)
    judged = judge_router(records, labels) if labels else None
    if labels:  # anyone can re-derive them for their own model and corpus
        (out_dir / "labels.jsonl").write_text(
            "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in labels)
        )
    nodes = by_node(records)
    _write_summary(out_dir, summary, pairs, routes, kinds, routing, judged, canard, nodes)
    parts = [f"# {title}", ""]
    if summary:
        parts += _answers(summary, pairs, kinds, routes)
    if nodes:
        parts += [
            "## Where the time goes (per node and route; share of the group's time)",
            "",
            table(nodes),
            "",
        ]
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
    if judged:
        parts += _derived_routing(judged)
    if canard:
        parts += ["## Follow-up rewriting (CANARD)", "", table([canard]), ""]
    if followups:
        parts += [
            "## Follow-ups in both languages (referent in the rewrite; goal ≥ 80% each)",
            "",
            table(followups["languages"]),
            "",
        ]
    parts += ["## Against the goals", "", *goals(summary, pairs, routing), ""]
    if records:
        images = plots(records, summary, out_dir)
        parts += ["## Plots", "", *[f"![{p.stem}]({p.name})" for p in images], ""]
    report = out_dir / "report.md"
    report.write_text("\n".join(parts))
    return report
