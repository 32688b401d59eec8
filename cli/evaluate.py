"""Evaluation commands: answers against baselines, routing, rewrites, calibration, reports."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from adaptive_rag.cli.common import EXIT_BAD_CONFIG, OutDir, Settings, app, fail, listed
from adaptive_rag.cli.settings import settings_from_pairs

evaluate = typer.Typer(help="Measure answers, retrieval, routing and cost against baselines.")
app.add_typer(evaluate, name="eval")


@evaluate.command("run")
def eval_run(
    dataset: Annotated[
        str,
        typer.Argument(
            help="squad2, multihop_rag, cmrc2018, traffic_mix, traffic_company, traffic_handbook,"
            " or questions.jsonl"
        ),
    ],
    out: OutDir = Path("eval-out"),
    configs: Annotated[
        str,
        typer.Option(
            help="Comma-separated: adaptive, full, single, direct (no retrieval), multi"
            " (always multi-step), noassess (the graph without assess's odds)."
            " With direct,single,multi it writes labels.jsonl and judges the route against them."
        ),
    ] = "adaptive,full,single",
    limit: Annotated[int, typer.Option(help="Questions to run (0: all).")] = 30,
    sample: Annotated[
        bool, typer.Option(help="A seeded random sample instead of the first.")
    ] = True,
    corpus: Annotated[Path | None, typer.Option(help="Corpus JSONL for a custom data set.")] = None,
    seed: Annotated[
        int, typer.Option(help="Seed of the sample (13: the sample the reported figures use).")
    ] = 13,
    kinds: Annotated[
        str,
        typer.Option(
            help="Comma-separated question kinds to sample from (e.g. multihop_rag's"
            " inference_query,comparison_query); all when empty."
        ),
    ] = "",
    settings: Settings = None,
) -> None:
    """Run the adaptive graph and its baselines on the same questions, interleaved."""
    from adaptive_rag.evaluation.harness import run_eval
    from adaptive_rag.evaluation.report import build_report

    try:
        run_eval(
            dataset,
            out,
            listed(configs),
            limit,
            sample,
            seed=seed,
            corpus=corpus,
            kinds=listed(kinds),
            context=settings_from_pairs(settings),
        )
    except (ValueError, FileNotFoundError) as exc:
        raise fail(str(exc), EXIT_BAD_CONFIG) from exc
    typer.echo(build_report(out).read_text())


@evaluate.command("routing")
def eval_routing(
    out: OutDir = Path("eval-out"),
    limit: Annotated[int, typer.Option(help="Questions (0: all 199).")] = 0,
) -> None:
    """Classify the routing set's questions and compare with its A/B/C labels."""
    from adaptive_rag.evaluation.report import build_report
    from adaptive_rag.evaluation.routing import run_routing
    from adaptive_rag.services import Services

    out.mkdir(parents=True, exist_ok=True)
    result = run_routing(Services(no_web=True), limit=limit)
    (out / "routing.json").write_text(json.dumps(result, indent=2))
    typer.echo(build_report(out).read_text())


@evaluate.command("canard")
def eval_canard(
    out: OutDir = Path("eval-out"),
    limit: Annotated[int, typer.Option(help="Follow-ups to rewrite.")] = 50,
) -> None:
    """Rewrite CANARD follow-ups; F1 against the gold rewrite and retrieval agreement."""
    from adaptive_rag.evaluation.report import build_report
    from adaptive_rag.evaluation.rewrite_eval import run_rewrite
    from adaptive_rag.services import Services

    out.mkdir(parents=True, exist_ok=True)
    (out / "canard.json").write_text(json.dumps(run_rewrite(Services(no_web=True), limit=limit)))
    typer.echo(build_report(out).read_text())


@evaluate.command("followups")
def eval_followups(out: OutDir = Path("eval-out")) -> None:
    """Rewrite the bilingual follow-up set; count how often the referent is in the rewrite."""
    from adaptive_rag.evaluation.followup_eval import run_followups
    from adaptive_rag.evaluation.report import build_report
    from adaptive_rag.services import Services

    out.mkdir(parents=True, exist_ok=True)
    result = run_followups(Services(no_web=True))
    (out / "followups.json").write_text(json.dumps(result, ensure_ascii=False, indent=2))
    typer.echo(build_report(out).read_text())


@evaluate.command("calibrate")
def eval_calibrate(
    outs: Annotated[list[Path], typer.Argument(help="Run folders whose results to fit on.")],
    write: Annotated[
        bool, typer.Option(help="Install the fitted map as the package's confidence map.")
    ] = False,
    check: Annotated[
        bool,
        typer.Option(
            help="Fit nothing: measure the installed map on these runs (ECE, bootstrap interval)."
        ),
    ] = False,
    map_file: Annotated[
        Path | None,
        typer.Option(
            "--map",
            help="With --check, measure this map (a confidence.json a fit wrote) instead.",
        ),
    ] = None,
) -> None:
    """Fit the confidence map on the adaptive runs; print its held-out ECE, plot reliability.

    With --check, fit nothing: print the installed map's ECE (or --map's) on each run folder,
    for runs it was not fitted on.
    """
    from adaptive_rag.core.judges import WEIGHTS_DIR, Logistic, load_judge
    from adaptive_rag.evaluation.calibrate import (
        SPLITS,
        as_model,
        fit,
        measure,
        reliability_diagram,
        split,
    )
    from adaptive_rag.evaluation.data import FITTED_DIR

    if map_file is not None and not check:
        raise fail("--map names a map to measure: use it with --check", EXIT_BAD_CONFIG)
    if check:
        if write:
            raise fail("--check measures the installed map; it cannot --write", EXIT_BAD_CONFIG)
        source = map_file or WEIGHTS_DIR / "confidence.json"
        measured: Logistic | None = None
        try:
            measured = (
                as_model(json.loads(map_file.read_text())) if map_file else load_judge("confidence")
            )
        except (OSError, ValueError, KeyError, TypeError):
            measured = None
        if measured is None:
            raise fail(f"no confidence map at {source}", EXIT_BAD_CONFIG)
        for out in outs:
            got = _fit_on([out], lambda records: measure(records, measured))
            low, high = got["interval"]
            typer.echo(
                f"{out}: {got['n']} answers, accuracy {got['accuracy']}, mean confidence"
                f" {got['mean_confidence']}, ECE {got['ece']} [{low}, {high}]"
            )
        return
    fitted = _fit_on(outs, fit)
    model, record = split(fitted)
    target = WEIGHTS_DIR / "confidence.json" if write else outs[0] / "confidence.json"
    target.write_text(json.dumps(model, indent=1))
    kept = outs[0] / "confidence.fit.json"
    kept.write_text(json.dumps(record, indent=1))
    if write and FITTED_DIR.is_dir():  # a clone keeps the shipped map's record beside the code
        kept = FITTED_DIR / "confidence.json"
        kept.write_text(json.dumps(record, indent=1))
    plot = reliability_diagram(fitted, outs[0] / "reliability.png")
    typer.echo(
        f"fitted on {fitted['n']} answers (accuracy {fitted['accuracy']}); held-out ECE"
        f" {fitted['ece_held_out']} (mean of {SPLITS} fold splits; range"
        f" {fitted['ece_held_out_range']}); map -> {target}; its rows and figures -> {kept};"
        f" reliability diagram -> {plot}"
    )


@evaluate.command("report")
def eval_report(out: OutDir = Path("eval-out")) -> None:
    """Rebuild report.md, summary.json and the plots from a run folder."""
    from adaptive_rag.evaluation.report import build_report

    typer.echo(build_report(out).read_text())


def _fit_on(
    outs: list[Path], fit: Callable[[list[dict[str, Any]]], dict[str, Any]]
) -> dict[str, Any]:
    """Fit on the rows of several runs; a set that cannot be fitted is a usage error."""
    from adaptive_rag.evaluation.data import read_jsonl

    missing = [str(out) for out in outs if not (out / "results.jsonl").is_file()]
    if missing:
        raise fail(
            f"no results.jsonl in {', '.join(missing)} (run 'eval run' first)", EXIT_BAD_CONFIG
        )
    try:
        fitted = fit([r for out in outs for r in read_jsonl(out / "results.jsonl")])
    except ValueError as exc:
        raise fail(str(exc), EXIT_BAD_CONFIG) from exc
    fitted["fitted_on"] = [str(out) for out in outs]
    return fitted
