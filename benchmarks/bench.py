"""Developer benchmarks over ../shared/data that print figures (no asserts); not installed.

Run from a clone, with the package installed in the venv:
`.venv/bin/python benchmarks/bench.py retrieval --limit 150` (`--help` lists the benchmarks).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Annotated, Any

import typer

bench = typer.Typer(
    help="Developer benchmarks over ../shared/data that print figures (no asserts).",
    no_args_is_help=True,
    add_completion=False,
)


Sets = Annotated[str, typer.Option(help="Comma-separated shared sets ('' for none).")]
Questions = Annotated[
    list[Path] | None,
    typer.Option(help="A questions JSONL of your own (repeatable; each with a --corpus)."),
]
Limit = Annotated[int, typer.Option(help="Questions per data set (0: all).")]
EmbeddingModel = Annotated[str, typer.Option(help="Embedding model.")]
Out = Annotated[Path | None, typer.Option(help="Also write the tables here (Markdown).")]
Corpus = Annotated[
    list[Path] | None, typer.Option(help="The corpus JSONL of each --questions, in order.")
]


def _chosen(sets: str, questions: list[Path] | None, corpus: list[Path] | None) -> list[Any]:
    """Return the shared sets named and the sets of our own given (questions with a corpus)."""
    from adaptive_rag.evaluation.sets import load_eval_set, retrieval_sets

    if len(questions or []) != len(corpus or []):
        raise typer.BadParameter("give one --corpus per --questions, in the same order")
    chosen = retrieval_sets([s.strip() for s in sets.split(",") if s.strip()]) if sets else []
    chosen += [load_eval_set(str(q), c) for q, c in zip(questions or [], corpus or [], strict=True)]
    return chosen


@bench.command("retrieval")
def bench_retrieval(
    limit: Limit = 200,
    sets: Sets = "multihop_rag,squad2,cmrc2018",
    questions: Questions = None,
    corpus: Corpus = None,
    sizes: Annotated[
        str, typer.Option(help="Synthetic collection sizes for latency.")
    ] = "1000,10000,100000",
    embedding_model: EmbeddingModel = "auto",
    fusions: Annotated[
        bool, typer.Option("--fusions/--no-fusions", help="Also score the graph's fusion variants.")
    ] = False,
    out: Out = None,
    recall_table: Annotated[
        bool, typer.Option("--recall/--no-recall", help="Measure recall.")
    ] = True,
) -> None:
    """Recall of BM25, vector, hybrid, + graph and + facets; ingestion speed; latency at scale."""
    import retrieval_bench as rb
    import scale_bench as sb
    from adaptive_rag.evaluation.tables import table

    chosen = _chosen(sets, questions, corpus)
    recall, fused = (
        ([], []) if not recall_table else rb.recall_table(chosen, limit, embedding_model, fusions)
    )
    scale = sb.scale_table([int(s) for s in sizes.split(",") if s.strip()])
    columns = list(dict.fromkeys(key for row in recall for key in row))  # some rows have more
    text = f"### Recall\n\n{table(recall, columns)}\n\n"
    if fused:
        text += f"### The graph's fusion\n\n{table(fused)}\n\n"
    text += f"### Latency at scale\n\n{table(scale)}\n"
    _emit(text, out)


@bench.command("stores")
def bench_stores(
    limit: Limit = 150,
    sets: Sets = "multihop_rag,squad2,cmrc2018",
    questions: Questions = None,
    corpus: Corpus = None,
    embedding_model: EmbeddingModel = "auto",
    writes: Annotated[int, typer.Option(help="Writes timed for visibility (0: none).")] = 20,
    sizes: Annotated[
        str, typer.Option(help="Synthetic collection sizes loaded into both stores ('' for none).")
    ] = "10000,100000",
    chroma_up_to: Annotated[
        int, typer.Option(help="Sizes above this many chunks load PostgreSQL alone.")
    ] = 100_000,
    out: Out = None,
) -> None:
    """Compare the PostgreSQL store (KNOWLEDGE_URI) with Chroma: recall, time, write visibility."""
    import os

    import store_bench as stb
    from adaptive_rag.evaluation.tables import table

    uri = os.environ.get("KNOWLEDGE_URI", "")
    if not uri:
        raise typer.BadParameter(
            "set KNOWLEDGE_URI to a PostgreSQL with pgvector (scripts/test-env starts one)"
        )
    chosen = _chosen(sets, questions, corpus)
    text = ""
    if chosen:
        rows = stb.parity_table(chosen, limit, embedding_model, uri)
        text += f"### Recall and search time\n\n{table(rows)}\n"
    if writes:
        text += f"\n### Write visibility\n\n{table([stb.visibility(uri, writes)])}\n"
    scale = [int(s) for s in sizes.split(",") if s.strip()]
    if scale:
        rows = stb.scale_pair(scale, uri, chroma_up_to=chroma_up_to)
        text += f"\n### Search time at scale\n\n{table(rows)}\n"
    _emit(text, out)


@bench.command("fusion")
def bench_fusion(
    limit: Limit = 150,
    sets: Sets = "multihop_rag,squad2,cmrc2018",
    questions: Questions = None,
    corpus: Corpus = None,
    held_out: Annotated[
        str, typer.Option(help="Comma-separated sets scored but never fitted on.")
    ] = "hotpot_pool",
    embedding_model: EmbeddingModel = "auto",
    scores: Annotated[
        Path | None,
        typer.Option(
            help="Per-question scores: read from this JSON if it exists, else saved to it."
        ),
    ] = None,
    reranker: Annotated[
        Path | None,
        typer.Option(
            help="A cross-encoder's folder (model.onnx, tokenizer.json): also rerank the"
            " default search's candidates with it (benchmarks/cross_encoder.py)."
        ),
    ] = None,
    out: Out = None,
) -> None:
    """Score the fusion against its best single channel, with channel weights fitted held out."""
    import json

    import fusion_bench as fb
    from adaptive_rag.evaluation.tables import table

    if scores is not None and scores.is_file():
        per_set = json.loads(scores.read_text(encoding="utf-8"))
    else:
        per_set = fb.scores_per_set(
            _chosen(sets, questions, corpus), limit, embedding_model, reranker=reranker
        )
        if scores is not None:
            scores.write_text(json.dumps(per_set), encoding="utf-8")
    never_fitted = [s.strip() for s in held_out.split(",") if s.strip()]
    rows = fb.held_out_rows(per_set, never_fitted)
    columns = list(dict.fromkeys(key for row in rows for key in row))  # some rows have more
    signals = fb.signal_rows(per_set, never_fitted)
    _emit(
        f"### The fusion against its best channel\n\n{table(rows, columns)}\n\n"
        f"### What a question's searches say of the better channel\n\n{table(signals)}\n",
        out,
    )


@bench.command("answers")
def bench_answers(
    runs: Annotated[
        list[str],
        typer.Argument(help="FIRST_RUN,SECOND_RUN: two `eval run` folders of the same set."),
    ],
    labels: Annotated[
        str, typer.Option(help="What the two runs are, comma-separated (column names).")
    ] = "before,after",
    out: Out = None,
) -> None:
    """Pair the adaptive graph's answers in two runs of a set: two stores, or before and after."""
    import argparse

    import answer_pairs as ap
    from adaptive_rag.evaluation.tables import table
    from goals import run_folder

    first, _, second = labels.partition(",")
    if not first or not second:
        raise typer.BadParameter(f"{labels!r}: give two labels, FIRST,SECOND")
    rows, differences = [], []
    for pair in runs:
        first_run, _, second_run = pair.partition(",")
        if not second_run:
            raise typer.BadParameter(f"{pair!r}: give FIRST_RUN,SECOND_RUN")
        try:
            first_folder, second_folder = run_folder(first_run), run_folder(second_run)
        except argparse.ArgumentTypeError as refused:
            raise typer.BadParameter(str(refused)) from None
        row, differ = ap.answers_pair(first_folder, second_folder, (first, second))
        rows.append(row)
        differences.extend(differ)
    shown = f"\n### Answers that differ\n\n{table(differences)}\n" if differences else ""
    _emit(f"{table(rows)}\n{shown}", out)


@bench.command("owned")
def bench_owned(
    runs: Annotated[
        list[str],
        typer.Argument(
            help="`eval run` folders (any configurations); FIRST+SECOND reads two runs of one set"
            " as one (configurations run apart, e.g. single-shot, whose answers do not change)."
        ),
    ],
    confidence_map: Annotated[
        Path | None,
        typer.Option("--map", help="Rate confidence again with this confidence.json (a refit)."),
    ] = None,
    out: Out = None,
) -> None:
    """Questions about a knowledge base's own things: declines, general answers, confidence."""
    import argparse

    import owned_bench as ob
    from adaptive_rag.evaluation.tables import table
    from goals import run_folder

    text = ""
    for run in runs:
        try:
            folders = [run_folder(part) for part in run.split("+")]
        except argparse.ArgumentTypeError as refused:
            raise typer.BadParameter(str(refused)) from None
        rs = [r for folder in folders for r in ob.records(folder, confidence_map)]
        text += f"## {run}\n\n### Outcomes per kind\n\n{table(ob.kind_table(rs))}\n\n"
        text += f"### Unverified answers\n\n{table(ob.unverified_table(rs))}\n\n"
        text += f"### Confidence, right against wrong\n\n{table(ob.confidence_table(rs))}\n\n"
        text += f"### General questions\n\n{table(ob.general_table(rs))}\n\n"
        text += f"### Paired\n\n{table(ob.paired_table(rs))}\n\n"
    _emit(text, out)


@bench.command("access")
def bench_access(
    size: Annotated[int, typer.Option(help="Chunks in the synthetic collection.")] = 10000,
    tenants: Annotated[int, typer.Option(help="Owners the private chunks are spread over.")] = 10,
    queries: Annotated[int, typer.Option(help="Queries per mode (each run both ways).")] = 200,
    embedding_model: Annotated[
        str, typer.Option(help="Embeds the queries ('random': none, the search alone).")
    ] = "auto",
    out: Out = None,
) -> None:
    """Time retrieval as one tenant (filtered) against unfiltered, interleaved, per search mode."""
    from access_bench import access_table
    from adaptive_rag.evaluation.tables import table

    text = table(access_table(size, tenants, queries, embedding_model)) + "\n"
    _emit(text, out)


@bench.command("models")
def bench_models(
    limit: Annotated[int, typer.Option(help="Items per task.")] = 20,
    out: Out = None,
) -> None:
    """Embedded model: load time; per node latency, tokens and parse failures."""
    import model_bench as mb

    text = mb.run(limit)
    _emit(text, out)


def _sample_kb(kb_path: str, collection: str) -> tuple[str, str, list[str]]:
    """Return a knowledge base (the bundled sample in a temp dir unless given) and its questions."""
    import tempfile

    from adaptive_rag.cli.common import SAMPLE_KB, SAMPLE_QUESTIONS
    from adaptive_rag.evaluation.data import read_jsonl
    from adaptive_rag.knowledge.chroma.store import ChromaStore

    rows = read_jsonl(SAMPLE_QUESTIONS)
    if not kb_path:
        kb_path, collection = str(Path(tempfile.mkdtemp()) / "kb"), "sample"
        ChromaStore.open(kb_path, collection, create=True).ingest([str(SAMPLE_KB)], False)
    return kb_path, collection or "default", [r["question"] for r in rows]


@bench.command("concurrency")
def bench_concurrency(
    levels: Annotated[str, typer.Option(help="Concurrent runs to measure.")] = "1,2,4",
    rounds: Annotated[int, typer.Option(help="Batches per level and mode.")] = 1,
    kb_path: Annotated[str, typer.Option("--kb-path", help="Knowledge base folder.")] = "",
    collection: Annotated[str, typer.Option(help="Collection (with --kb-path).")] = "",
) -> None:
    """Embedded model: N runs at once, per way of sharing it (interleaved in one process)."""
    import concurrency_bench as cb
    from adaptive_rag.evaluation.tables import table

    kb_path, collection, questions = _sample_kb(kb_path, collection)
    questions = questions[1:-1]  # the knowledge-base questions (not the greeting, not real-time)
    levels_ = [int(n) for n in levels.split(",") if n.strip()]
    progress = partial(typer.echo, err=True)
    typer.echo(table(cb.run(kb_path, collection, questions, levels_, rounds, progress)))


@bench.command("aegra")
def bench_aegra(
    users: Annotated[int, typer.Option(help="Users sending turns at once.")] = 4,
    turns: Annotated[int, typer.Option(help="Turns each user sends, one after another.")] = 2,
    rounds: Annotated[int, typer.Option(help="Times each deployment is measured, in turn.")] = 1,
    kb_path: Annotated[str, typer.Option("--kb-path", help="Knowledge base folder.")] = "",
    collection: Annotated[str, typer.Option(help="Collection (with --kb-path).")] = "",
) -> None:
    """Aegra with 1 and 2 executing processes on one model server: turns a minute, p50, p95."""
    import aegra_bench as ab
    from adaptive_rag.evaluation.tables import table

    kb_path, collection, questions = _sample_kb(kb_path, collection)
    questions = questions[1:-1]  # the knowledge-base questions (not the greeting, not real-time)
    progress = partial(typer.echo, err=True)
    typer.echo(table(ab.run(questions, kb_path, collection, users, turns, rounds, progress)))


@bench.command("ttft")
def bench_ttft(
    rounds: Annotated[int, typer.Option(help="Times each sample question is asked.")] = 1,
    kb_path: Annotated[str, typer.Option("--kb-path", help="Knowledge base folder.")] = "",
    collection: Annotated[str, typer.Option(help="Collection (with --kb-path).")] = "",
) -> None:
    """Embedded model: time to the first answer token per route, over the sample questions."""
    import ttft_bench as tb
    from adaptive_rag.evaluation.tables import table

    kb_path, collection, questions = _sample_kb(kb_path, collection)
    progress = partial(typer.echo, err=True)
    typer.echo(table(tb.run(kb_path, collection, questions, rounds, progress)))


@bench.command("answer-cache")
def bench_answer_cache(
    datasets: Annotated[str, typer.Option(help="Comma-separated shared sets.")] = (
        "squad2,cmrc2018,multihop_rag"
    ),
    embedding_model: EmbeddingModel = "auto",
    closest: Annotated[int, typer.Option(help="Also list the most alike pairs per set.")] = 3,
) -> None:
    """Count false hits of answer-cache thresholds: alike questions that want other answers."""
    import cache_bench as cb
    from adaptive_rag.evaluation.tables import table

    names = [d.strip() for d in datasets.split(",") if d.strip()]
    rows, pairs = cb.measure(names, closest, embedding_model)
    typer.echo(table(rows))
    for name in names if closest else []:
        typer.echo(f"\n{name}: the most alike questions that want different answers\n")
        typer.echo(table(pairs[name]))


@bench.command("grounding")
def bench_grounding(
    answers: Annotated[int, typer.Option(help="Answers (and chunks) timed per language.")] = 50,
    chunk_chars: Annotated[int, typer.Option(help="Characters per source chunk.")] = 1000,
) -> None:
    """Time the rule-based grounding check per answer and the term extractor per chunk."""
    import grounding_bench as gb
    from adaptive_rag.evaluation.tables import table

    typer.echo(table(gb.measure(answers, chunk_chars)))


@bench.command("ingest-server")
def bench_ingest_server(
    documents: Annotated[int, typer.Option(help="Documents (SQuAD2 paragraphs) to ingest.")] = 200,
    batch: Annotated[int, typer.Option(help="Documents a request to the server.")] = 50,
) -> None:
    """Documents a second through the served `knowledge` graph against `adaptive-rag ingest`."""
    import ingest_server_bench as ib

    typer.echo("\n".join(ib.run(documents, batch)))


@bench.command("path")
def bench_path(
    question: Annotated[
        str, typer.Option(help="The knowledge-base question traced.")
    ] = "How long does the Kestrel K2 battery last at the default reporting interval?",
    warm_up: Annotated[
        str, typer.Option(help="Asked first, untraced.")
    ] = "What is the restocking fee for a return 40 days after delivery?",
    out: Out = None,
) -> None:
    """List the package modules one question runs through (intake to finalize), by length."""
    import question_path as qp

    _emit("\n".join(qp.report(*qp.trace(question, warm_up))), out)


def _emit(text: str, out: Path | None) -> None:
    """Print a benchmark's tables, and also write them to `out` when one is given."""
    typer.echo(text)
    if out:
        out.write_text(text)


if __name__ == "__main__":
    bench()
