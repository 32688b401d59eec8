"""Benchmarks over ../shared/data that print figures (no asserts)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from adaptive_rag.cli.common import app

bench = typer.Typer(help="Benchmarks over ../shared/data that print figures (no asserts).")
app.add_typer(bench, name="bench")


@bench.command("retrieval")
def bench_retrieval(
    limit: Annotated[int, typer.Option(help="Questions per data set.")] = 200,
    sizes: Annotated[
        str, typer.Option(help="Synthetic collection sizes for latency.")
    ] = "1000,10000,100000",
    embedding_model: Annotated[str, typer.Option(help="Embedding model.")] = "auto",
    out: Annotated[Path | None, typer.Option(help="Also write the tables here (Markdown).")] = None,
    recall_table: Annotated[
        bool, typer.Option("--recall/--no-recall", help="Measure recall.")
    ] = True,
) -> None:
    """Recall of BM25, vector and hybrid search; ingestion speed; latency at scale."""
    from adaptive_rag.evaluation import retrieval_bench as rb  # noqa: PLC0415
    from adaptive_rag.evaluation.tables import table  # noqa: PLC0415

    recall = rb.recall_table(limit, embedding_model) if recall_table else []
    scale = rb.scale_table([int(s) for s in sizes.split(",") if s.strip()])
    text = f"### Recall\n\n{table(recall)}\n\n### Latency at scale\n\n{table(scale)}\n"
    typer.echo(text)
    if out:
        out.write_text(text)


@bench.command("expansions")
def bench_expansions(
    kb_path: Annotated[str, typer.Option("--kb-path", help="An eval run's kb folder.")],
    datasets: Annotated[str, typer.Option(help="Comma-separated shared sets.")] = "squad2,cmrc2018",
    limit: Annotated[int, typer.Option(help="Questions per data set.")] = 30,
) -> None:
    """Measure multi-query expansion and HyDE against plain retrieval (needs a chat model)."""
    from adaptive_rag.evaluation import retrieval_bench as rb  # noqa: PLC0415
    from adaptive_rag.evaluation.tables import table  # noqa: PLC0415

    rows = rb.expansion_table(kb_path, [d.strip() for d in datasets.split(",")], limit)
    typer.echo(table(rows))


@bench.command("models")
def bench_models(
    limit: Annotated[int, typer.Option(help="Items per task.")] = 20,
    out: Annotated[Path | None, typer.Option(help="Also write the table here (Markdown).")] = None,
) -> None:
    """Embedded model: load time; per node latency, tokens and parse failures."""
    from adaptive_rag.evaluation import model_bench as mb  # noqa: PLC0415

    text = mb.run(limit)
    typer.echo(text)
    if out:
        out.write_text(text)
