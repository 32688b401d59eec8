"""`adaptive-rag eval fit-judges`: fit the judges on labelled sets and say how they do."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from adaptive_rag.cli.common import EXIT_BAD_CONFIG, fail, listed
from adaptive_rag.cli.evaluate import evaluate

if TYPE_CHECKING:
    from adaptive_rag.core.judges import Logistic

SHARED_SETS = "squad2,cmrc2018,multihop_rag"


@evaluate.command("fit-judges")
def eval_fit_judges(
    sets: Annotated[
        str,
        typer.Option(help="Comma-separated shared sets (or questions.jsonl, with --corpus)."),
    ] = SHARED_SETS,
    corpus: Annotated[Path | None, typer.Option(help="Corpus JSONL for a custom set.")] = None,
    out: Annotated[
        Path, typer.Option(help="Folder for the sets' indexes, labelled rows and weights.")
    ] = Path("eval-out/judges"),
    depth: Annotated[int, typer.Option(help="Sources per question, as the agent reads.")] = 4,
    held_back: Annotated[
        int,
        typer.Option(
            help="Each set's evaluation sample (`eval run --limit N`) left out of the fit."
        ),
    ] = 80,
    runs: Annotated[
        list[Path] | None,
        typer.Option(help="`eval run` folders to fit the answerability judge (the decline) on."),
    ] = None,
    relevance: Annotated[
        bool,
        typer.Option(
            help="Fit the relevance judge too (--no-relevance: only the decline, on --runs)."
        ),
    ] = True,
    write: Annotated[bool, typer.Option(help="Install the weights as the package's.")] = False,
) -> None:
    """Fit the relevance judge on retrieved sources, and the decline on runs (with --runs)."""
    from adaptive_rag.core.judges import WEIGHTS_DIR
    from adaptive_rag.evaluation.judge_data import collect, held_back_ids
    from adaptive_rag.evaluation.relevance_fit import fit_relevance
    from adaptive_rag.evaluation.sets import load_eval_set
    from adaptive_rag.evaluation.tables import table
    from adaptive_rag.knowledge.embeddings import resolve_embeddings_spec

    if not relevance and not runs:
        raise fail("--no-relevance fits only the decline: name its runs with --runs", 2)
    paths, excluded = [], set()
    try:
        for name in listed(sets):
            data = load_eval_set(name, corpus)
            excluded |= held_back_ids(data, held_back)
            if not relevance:
                continue
            paths.append(collect(data, out, depth))
    except (ValueError, FileNotFoundError) as exc:
        raise fail(str(exc), EXIT_BAD_CONFIG) from exc
    if not relevance:
        out.mkdir(parents=True, exist_ok=True)
        _fit_decline(list(runs or []), out, excluded, write)
        return
    fitted = fit_relevance(paths, depth, resolve_embeddings_spec("auto"), excluded)
    report = fitted["report"]
    typer.echo(f"{report['questions']} questions, {report['sources']} sources (top {depth})")
    for name, judge in fitted["judges"].items():
        figures = report[name]
        typer.echo(
            f"\n{name}: held-out AUC {figures['held_out_auc']}, thresholds {figures['thresholds']},"
            f" verdicts (held out) {figures['verdicts_held_out']}"
        )
        typer.echo("held-out folds:\n" + table(figures["held_out"]))
        typer.echo("each set left out of the fit:\n" + table(figures["left_out"]))
        _keep(out, name, judge, figures, write)
    if runs:
        _fit_decline(runs, out, excluded, write)
    typer.echo(f"\njudge time per question (median, cold): {report['ms_per_question']} ms")
    typer.echo(f"weights -> {out}" + (f" and installed in {WEIGHTS_DIR}" if write else ""))


def _fit_decline(runs: list[Path], out: Path, excluded: set[str], write: bool) -> None:
    """Fit the answerability judge on run records; print both errors; keep (and install) it."""
    from adaptive_rag.evaluation.answerable_fit import fit_answerable
    from adaptive_rag.evaluation.tables import table
    from adaptive_rag.providers.chat import resolve_model_spec

    missing = [str(r) for r in runs if not (r / "results.jsonl").is_file()]
    if missing:
        raise fail(f"no results.jsonl in {', '.join(missing)} (run 'eval run' first)", 2)
    try:
        fitted = fit_answerable(runs, resolve_model_spec("auto"), excluded)
    except ValueError as exc:
        raise fail(str(exc), EXIT_BAD_CONFIG) from exc
    report = fitted["report"]
    typer.echo(f"\nanswerability: {report['runs']} runs")
    for name, judge in fitted["judges"].items():
        figures = report[name]
        typer.echo(f"\n{name}: declines below {figures['decline_below']}")
        typer.echo("held-out folds:\n" + table(figures["held_out"]))
        typer.echo("each set left out of the fit:\n" + table(figures["left_out"]))
        _keep(out, name, judge, figures, write)


def _keep(out: Path, name: str, judge: Logistic, figures: dict[str, Any], write: bool) -> None:
    """Write a fitted judge and its figures beside the fit; with `write`, install both.

    The package ships the judge (core/judges/weights/<name>.json); what it measured is kept in
    the clone (benchmarks/fitting/<name>.json), which an installed package does not have.
    """
    from adaptive_rag.core.judges import WEIGHTS_DIR
    from adaptive_rag.evaluation.data import FITTED_DIR

    model, record = json.dumps(judge.to_json(), indent=1), json.dumps(figures, indent=1)
    (out / f"{name}.json").write_text(model)
    (out / f"{name}.fit.json").write_text(record)
    if write:
        WEIGHTS_DIR.mkdir(exist_ok=True)
        (WEIGHTS_DIR / f"{name}.json").write_text(model)
        if FITTED_DIR.is_dir():
            (FITTED_DIR / f"{name}.json").write_text(record)


@evaluate.command("judge-sources")
def eval_judge_sources(
    dataset: Annotated[str, typer.Argument(help="A shared set, or questions.jsonl (--corpus).")],
    corpus: Annotated[Path | None, typer.Option(help="Corpus JSONL for a custom set.")] = None,
    out: Annotated[
        Path, typer.Option(help="Folder for the set's index and labelled rows (reruns reuse it).")
    ] = Path("eval-out/judges"),
    depth: Annotated[int, typer.Option(help="Sources per question, as the agent reads.")] = 4,
) -> None:
    """Score the shipped relevance judge on a set's sources: gold kept, others dropped."""
    from adaptive_rag.core.judges import RELEVANCE_JUDGE, load_judge
    from adaptive_rag.evaluation.judge_data import collect
    from adaptive_rag.evaluation.relevance_fit import judge_on
    from adaptive_rag.evaluation.sets import load_eval_set
    from adaptive_rag.evaluation.tables import table

    judge = load_judge(RELEVANCE_JUDGE)
    if judge is None:
        raise fail("no relevance judge is shipped: run `adaptive-rag eval fit-judges --write`", 2)
    try:
        path = collect(load_eval_set(dataset, corpus), out, depth)
    except (ValueError, FileNotFoundError) as exc:
        raise fail(str(exc), EXIT_BAD_CONFIG) from exc
    typer.echo(table(judge_on([path], depth, judge)))
