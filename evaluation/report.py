"""Turn evaluation results into JSON, a Markdown report and plots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from adaptive_rag.evaluation.aggregate import by_kind, by_node, by_route, paired, summarize
from adaptive_rag.evaluation.compare import against_full, by_checks, held_out, retrieval_harm
from adaptive_rag.evaluation.data import read_jsonl
from adaptive_rag.evaluation.labels import derive_labels, judge_router
from adaptive_rag.evaluation.plots import plots
from adaptive_rag.evaluation.tables import table

PAPER_ROUTER_ACCURACY = 0.5452


def goals(
    summary: list[dict[str, Any]],
    pairs: list[dict[str, Any]],
    routing: dict[str, Any] | None,
    ratios: list[dict[str, Any]] | None = None,
    harm: list[dict[str, Any]] | None = None,
) -> list[str]:
    """Check the figures against the targets: better than single-shot, honest, cheaper than full.

    `ratios` (`against_full`) and `harm` (`retrieval_harm`) add a line per configuration.
    """
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
    for row in ratios or []:
        lines.append(
            f"- {row['dataset']}: {row['config']} against full: p50 latency ×{row['p50 × full']},"
            f" p95 ×{row['p95 × full']}, tokens ×{row['tokens × full']}"
        )
    for row in harm or []:
        lines.append(
            f"- {row['dataset']}: {row['config']} wrong where direct (no retrieval) was right:"
            f" {row['wrong where direct right']}/{row['answerable']} answerable questions"
            f" ({row['share']:.0%})"
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
            "## Paired comparisons (same questions)",
            "",
            "Each configuration against single-shot; adaptive also against no retrieval.",
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


def _comparisons(
    checks: list[dict[str, Any]],
    ratios: list[dict[str, Any]],
    harm: list[dict[str, Any]],
    held: dict[str, list[dict[str, Any]]] | None,
) -> list[str]:
    """Report what the checks changed, cost against full, retrieval's harm, the held-out part."""
    parts: list[str] = []
    if checks:
        parts += [
            "## Answers the graph's own checks lost and mended (answerable questions)",
            "",
            "Lost: the first answer written this turn was right, the final one declined or wrong;"
            " mended: the first was wrong or nothing was written, the final one right.",
            "",
            table(checks),
            "",
        ]
    if ratios:
        parts += ["## Against the full pipeline (multiples of full's)", "", table(ratios), ""]
    if harm:
        parts += [
            "## Wrong answers caused by retrieval (direct right, this configuration wrong)",
            "",
            table(harm),
            "",
        ]
    if held:
        parts += ["## Held-out questions (and the rest)", "", table(held["summary"]), ""]
        parts += ["### Held-out by question type", "", table(held["by_kind"]), ""]
        if held["paired"]:
            parts += ["### Held-out, paired (same questions)", "", table(held["paired"]), ""]
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
        "checks",
        "against_full",
        "retrieval_harm",
        "held_out",
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
    pairs += paired(records, "adaptive", "direct")
    checks, ratios = by_checks(records), against_full(records)
    harm, held = retrieval_harm(records), held_out(records)
    labels = derive_labels(records)
    judged = judge_router(records, labels) if labels else None
    if labels:  # anyone can re-derive them for their own model and corpus
        (out_dir / "labels.jsonl").write_text(
            "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in labels)
        )
    nodes = by_node(records)
    _write_summary(
        out_dir,
        *(summary, pairs, routes, kinds, routing, judged, canard, nodes),
        *(checks, ratios, harm, held),
    )
    parts = [f"# {title}", ""]
    if summary:
        parts += _answers(summary, pairs, kinds, routes)
        parts += _comparisons(checks, ratios, harm, held)
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
    parts += ["## Against the goals", "", *goals(summary, pairs, routing, ratios, harm), ""]
    if records:
        images = plots(records, summary, out_dir)
        parts += ["## Plots", "", *[f"![{p.stem}]({p.name})" for p in images], ""]
    report = out_dir / "report.md"
    report.write_text("\n".join(parts))
    return report
