"""The `adaptive-rag` command line: ingest, list, delete, ask, and a demo over a sample base."""

from __future__ import annotations

import json
import sys
import time
import uuid
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from adaptive_rag.core.secrets import redact
from adaptive_rag.schema.context import Context, settings_from_pairs

app = typer.Typer(
    help="An adaptive RAG agent: it decides per question how much retrieval it deserves.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

EXIT_NO_KB = 3
EXIT_NO_MODEL = 4
EXIT_BAD_CONFIG = 2
EXIT_NETWORK = 5
SAMPLE_KB = Path(__file__).resolve().parents[1] / "examples" / "sample_kb"
SAMPLE_QUESTIONS = SAMPLE_KB.parent / "sample_questions.jsonl"

KbPath = Annotated[
    str, typer.Option("--kb-path", help="Knowledge-base folder (default: user data).")
]
Collection = Annotated[str, typer.Option("--collection", "-c", help="Collection name.")]
AllSources = Annotated[
    bool,
    typer.Option("--all-sources", help="Also list documents looked at but not cited."),
]
Settings = Annotated[
    list[str] | None,
    typer.Option("--set", help="Override a setting, FIELD=VALUE (repeatable; see README)."),
]


def _fail(message: str, code: int) -> typer.Exit:
    """Print an actionable error and return the exit to raise."""
    typer.secho(f"error: {redact(message)}", fg=typer.colors.RED, err=True)
    return typer.Exit(code)


def _open_kb(kb_path: str, collection: str, create: bool) -> Any:
    """Open a knowledge base, turning its errors into exit codes."""
    from adaptive_rag.knowledge.embeddings import EmbeddingsUnavailableError  # noqa: PLC0415
    from adaptive_rag.knowledge.store import KnowledgeBase, KnowledgeBaseError  # noqa: PLC0415

    try:
        return KnowledgeBase.open(kb_path, collection, create=create)
    except KnowledgeBaseError as exc:
        raise _fail(str(exc), EXIT_NO_KB) from exc
    except EmbeddingsUnavailableError as exc:
        raise _fail(str(exc), EXIT_NO_MODEL) from exc


@app.command()
def ingest(
    paths: Annotated[
        list[Path], typer.Argument(help="Files or folders (.txt .md .html .pdf .jsonl).")
    ],
    collection: Collection = "default",
    kb_path: KbPath = "",
) -> None:
    """Add documents to the knowledge base (unchanged files are skipped, changed ones replaced)."""
    kb = _open_kb(kb_path, collection, create=True)
    started = time.perf_counter()
    report = kb.ingest([str(p) for p in paths], progress=True)
    seconds = time.perf_counter() - started
    typer.echo(
        f"{len(report.added)} added, {len(report.replaced)} replaced,"
        f" {len(report.unchanged)} unchanged, {len(report.duplicates)} duplicates,"
        f" {len(report.failed)} failed;"
        f" {report.chunks_added} chunks added, {report.chunks_removed} removed"
        f" in {seconds:.1f}s -> {kb.count()} chunks in {collection!r} at {kb.location}"
    )
    for duplicate in report.duplicates:
        typer.secho(f"skipped duplicate: {duplicate}", fg=typer.colors.YELLOW, err=True)
    for failure in report.failed:
        typer.secho(f"skipped: {failure}", fg=typer.colors.YELLOW, err=True)
    if report.failed and not (report.added or report.replaced or report.unchanged):
        raise typer.Exit(1)


@app.command("list")
def list_sources(collection: Collection = "default", kb_path: KbPath = "") -> None:
    """Show the sources in the knowledge base."""
    kb = _open_kb(kb_path, collection, create=False)
    for entry in kb.sources():
        typer.echo(f"{entry['chunks']:5d}  {entry['source']}  ({entry['title']})")
    typer.echo(f"{kb.count()} chunks in {collection!r} at {kb.location}")


@app.command()
def delete(
    source: Annotated[str, typer.Argument(help="A source exactly as `list` shows it (or a path).")],
    collection: Collection = "default",
    kb_path: KbPath = "",
) -> None:
    """Remove one source and its chunks."""
    kb = _open_kb(kb_path, collection, create=False)
    candidates = [source, str(Path(source).expanduser().resolve())]
    removed = next((n for n in (kb.delete(c) for c in candidates) if n), 0)
    if not removed:
        raise _fail(f"no source {source!r} in {collection!r} (see `adaptive-rag list`)", 1)
    typer.echo(f"removed {removed} chunks of {source}")


@contextmanager
def _graph() -> Any:
    """Yield the agent with a durable checkpointer: PostgreSQL with POSTGRES_URI, else SQLite."""
    import os  # noqa: PLC0415

    from adaptive_rag.graph.builder import build_graph  # noqa: PLC0415

    uri = os.environ.get("POSTGRES_URI", "").strip()
    if uri:
        try:
            from langgraph.checkpoint.postgres import PostgresSaver  # noqa: PLC0415
        except ImportError as exc:
            raise _fail('POSTGRES_URI is set: pip install "adaptive-rag[postgres]"', 2) from exc
        try:
            with PostgresSaver.from_conn_string(uri) as saver:
                saver.setup()
                yield build_graph(saver)
        except Exception as exc:
            if isinstance(exc, typer.Exit):
                raise
            if type(exc).__module__.startswith("psycopg"):
                raise _fail(f"cannot use PostgreSQL at POSTGRES_URI: {exc}", EXIT_NETWORK) from exc
            raise
        return
    from adaptive_rag.knowledge.store import data_dir  # noqa: PLC0415
    from langgraph.checkpoint.sqlite import SqliteSaver  # noqa: PLC0415

    path = data_dir() / "threads.sqlite"
    path.parent.mkdir(parents=True, exist_ok=True)
    with SqliteSaver.from_conn_string(str(path)) as saver:
        yield build_graph(saver)


def _print_answer(out: dict[str, Any], seconds: float, all_sources: bool = False) -> None:
    """Print an answer with its numbered sources and what it cost."""
    typer.echo(out.get("answer", ""))
    _print_footer(out, seconds, all_sources)


def _print_footer(out: dict[str, Any], seconds: float, all_sources: bool = False) -> None:
    """Print the cited sources (all with all_sources), the route and what the answer cost."""
    sources = out.get("sources") or []
    shown = [s for s in sources if s["cited"] or all_sources]
    if shown:
        typer.echo("\nSources:" if out.get("answerable", True) else "\nDocuments looked at:")
        for src in shown:
            mark = "" if src["cited"] or not out.get("answerable", True) else " (not cited)"
            typer.echo(f"  [{src['id']}] {src['title']} — {src['source']}{mark}")
    hidden = len(sources) - len(shown)
    if hidden:
        typer.secho(
            f"({hidden} more document(s) looked at but not cited: --all-sources shows them)",
            fg=typer.colors.BRIGHT_BLACK,
        )
    route = out.get("route") or {}
    diag = out.get("diagnostics") or {}
    how = f"{route.get('method', '-')}: {route.get('reason', '')}"
    trust = f"confidence {out.get('confidence', 0):.2f}"
    decline = out.get("decline")
    if decline:
        trust = f"declined: {decline['reason']} ({decline['detail']}) | {trust}"
    elif not out.get("verified"):
        trust += " (unverified)"
    cost = f"{diag.get('model_calls', 0)} model calls, {diag.get('retrievals', 0)} retrievals"
    typer.secho(
        f"\nroute: {route.get('category', '-')} ({how}) | {trust} | {cost} | {seconds:.1f}s",
        fg=typer.colors.BRIGHT_BLACK,
    )
    for note in diag.get("notes") or []:
        typer.secho(f"note: {note}", fg=typer.colors.YELLOW)


def _context(settings: list[str] | None = None, **kwargs: Any) -> Context:
    """Build a Context from options and --set pairs, turning a bad value into a clear exit."""
    try:
        given = {k: v for k, v in kwargs.items() if v is not None}
        return Context(**{**given, **settings_from_pairs(settings)})
    except ValueError as exc:
        raise _fail(str(exc), EXIT_BAD_CONFIG) from exc


def _jsonable(out: dict[str, Any]) -> dict[str, Any]:
    """Make an output state printable as JSON (messages as role and text)."""
    messages = [{"role": m.type, "content": m.content} for m in out.get("messages") or []]
    return {**out, "messages": messages}


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="The question ('-' reads it from stdin).")],
    thread: Annotated[str, typer.Option("--thread", "-t", help="Continue this conversation.")] = "",
    collection: Collection = "default",
    kb_path: KbPath = "",
    as_json: Annotated[bool, typer.Option("--json", help="Print the full output state.")] = False,
    all_sources: AllSources = False,
    settings: Settings = None,
) -> None:
    """Answer one question (with --thread, as a turn of a conversation)."""
    ctx = _context(settings, collection=collection, kb_path=kb_path)
    question = _valid_question(_read_stdin() if question == "-" else question, ctx)
    thread_id = thread or str(uuid.uuid4())
    with _graph() as graph:
        if thread:
            _require_thread(graph, thread)
        started = time.perf_counter()
        out = graph.invoke(
            {"question": question}, {"configurable": {"thread_id": thread_id}}, context=ctx
        )
        seconds = time.perf_counter() - started
    if as_json:
        typer.echo(json.dumps(_jsonable(out), ensure_ascii=False, indent=2, default=str))
    else:
        _print_answer(out, seconds, all_sources)
        typer.secho(f"thread: {thread_id}", fg=typer.colors.BRIGHT_BLACK)
    _exit_for(out)


def _read_stdin() -> str:
    """Read a question from standard input, which must be UTF-8 text."""
    try:
        return sys.stdin.buffer.read().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _fail(f"the question is not valid UTF-8 ({exc.reason})", EXIT_BAD_CONFIG) from exc


def _valid_question(question: str, ctx: Context) -> str:
    """Refuse what the agent would refuse (empty, binary, invalid UTF-8, too long) with exit 2."""
    from adaptive_rag.nodes.intake import clean_question  # noqa: PLC0415

    cleaned, problem = clean_question(question, ctx.max_question_chars)
    if problem:
        raise _fail(problem, EXIT_BAD_CONFIG)
    return cleaned


def _require_thread(graph: Any, thread_id: str) -> None:
    """Refuse to 'continue' a conversation that does not exist (a typo would start a new one)."""
    if not graph.get_state({"configurable": {"thread_id": thread_id}}).values:
        raise _fail(
            f"no conversation with thread id {thread_id!r}; start one without --thread"
            " (its id is printed after the answer)",
            EXIT_BAD_CONFIG,
        )


def _exit_for(out: dict[str, Any]) -> None:
    """Exit non-zero when the run failed for a reason the user can fix (read from `failures`)."""
    failures = out.get("failures") or []
    answer_failed = {f["kind"] for f in failures if f["node"] == "generate"}
    if "model_unavailable" in answer_failed:
        raise typer.Exit(EXIT_NO_MODEL)
    if "model_unreachable" in answer_failed:
        typer.secho("error: the model's server could not be reached", fg=typer.colors.RED, err=True)
        raise typer.Exit(EXIT_NETWORK)
    if any(f["kind"] == "knowledge_base_unavailable" for f in failures):
        raise typer.Exit(EXIT_NO_KB)


@app.command()
def demo(
    kb_path: KbPath = "",
    questions: Annotated[Path, typer.Option(help="JSONL of questions to ask.")] = SAMPLE_QUESTIONS,
) -> None:
    """Ingest the bundled sample knowledge base and answer its sample questions."""
    from adaptive_rag.knowledge.store import data_dir  # noqa: PLC0415

    if not SAMPLE_KB.is_dir():
        raise _fail(f"the sample knowledge base is missing at {SAMPLE_KB}", 1)
    kb_dir = kb_path or str(data_dir() / "demo-kb")
    typer.echo(f"Ingesting the sample knowledge base ({SAMPLE_KB}) into {kb_dir} ...")
    ingest([SAMPLE_KB], collection="quillon", kb_path=kb_dir)
    ctx = _context(
        collection="quillon",
        kb_path=kb_dir,
        kb_description="Quillon Labs: Kestrel sensors, Heron hubs, warranty, returns, support",
    )
    rows = [json.loads(line) for line in questions.read_text().splitlines() if line.strip()]
    typer.echo("Loading the chat model (the embedded one assembles itself on first use) ...")
    with _graph() as graph:
        for row in rows:
            typer.secho(f"\n> {row['question']}", bold=True)
            started = time.perf_counter()
            out = graph.invoke(
                {"question": row["question"]},
                {"configurable": {"thread_id": f"demo-{uuid.uuid4()}"}},
                context=replace(ctx),
            )
            _print_answer(out, time.perf_counter() - started)
            _exit_for(out)


@app.command()
def chat(
    thread: Annotated[str, typer.Option("--thread", "-t", help="Resume this conversation.")] = "",
    collection: Collection = "default",
    kb_path: KbPath = "",
    settings: Settings = None,
) -> None:
    """Talk with the agent: follow-ups use the conversation; steps and tokens stream live."""
    from langgraph.types import Command  # noqa: PLC0415

    ctx = _context(settings, collection=collection, kb_path=kb_path)
    thread_id = thread or str(uuid.uuid4())
    config = {"configurable": {"thread_id": thread_id}}
    with _graph() as graph:
        if thread:
            _require_thread(graph, thread)
        typer.secho(
            f"thread {thread_id} — empty line or Ctrl-D to quit", fg=typer.colors.BRIGHT_BLACK
        )
        while True:
            try:
                question = input("\nyou> ").strip()
            except (EOFError, KeyboardInterrupt):
                break
            if not question:
                break
            payload: Any = {"question": question}
            while payload is not None:
                payload = _stream_turn(graph, payload, config, ctx, Command)


def _stream_turn(graph: Any, payload: Any, config: Any, ctx: Context, command: Any) -> Any:
    """Stream one turn: steps as they finish, answer tokens as they come; return a resume."""
    streamed: list[str] = []
    started = time.perf_counter()
    for mode, data in graph.stream(
        payload, config, context=ctx, stream_mode=["updates", "messages"]
    ):
        if mode == "messages":
            chunk, meta = data
            if meta.get("langgraph_node") == "generate" and chunk.content:
                streamed.append(str(chunk.content))
                typer.echo(str(chunk.content), nl=False)
            continue
        for node, update in data.items():
            if node == "__interrupt__":
                reply = input(f"agent asks> {update[0].value['question']}\nyou> ")
                return command(resume=reply)
            if node == "generate" and streamed:
                typer.echo("")  # end the streamed line
            _show_step(node, update or {})
    final = graph.get_state(config).values
    answer = str(final.get("answer", ""))
    if answer.strip() != "".join(streamed).strip():
        typer.echo(answer)  # the checked answer differs from the draft (notes, unverified, best)
    _print_footer(final, time.perf_counter() - started)
    return None


def _show_step(node: str, update: dict[str, Any]) -> None:
    """Print one finished step, with its verdict where it has one."""
    detail = ""
    if node == "classify" and update.get("route"):
        detail = f" -> {update['route']['category']} ({update['route']['reason']})"
    elif node == "grade_documents" and update.get("relevance"):
        detail = f" -> {update['relevance']}"
    elif node == "self_check" and update.get("check"):
        check = update["check"]
        detail = f" -> grounded={check['grounded']} answers={check['answers_question']}"
    elif node == "rewrite_with_history" and update.get("standalone"):
        detail = f" -> {update['standalone']}"
    if node != "finalize":
        typer.secho(f"  · {node}{detail}", fg=typer.colors.BRIGHT_BLACK)


@app.command()
def serve(
    port: Annotated[int, typer.Option(help="Port (0: pick a free one).")] = 2024,
) -> None:
    """Start `langgraph dev` for this project, with its outbound calls silenced."""
    import os  # noqa: PLC0415
    import shutil  # noqa: PLC0415
    import socket  # noqa: PLC0415
    import subprocess  # noqa: PLC0415

    root = Path(__file__).resolve().parents[1]
    if not (root / "langgraph.json").exists():
        raise _fail(f"langgraph.json not found in {root}; run from a clone of the project", 1)
    beside = Path(sys.executable).parent / "langgraph"
    cli = str(beside) if beside.exists() else shutil.which("langgraph")
    if cli is None:
        raise _fail('langgraph-cli is not installed: pip install "adaptive-rag[dev]"', 1)
    if port == 0:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = int(sock.getsockname()[1])
    env = {
        **os.environ,
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGGRAPH_NO_VERSION_CHECK": "1",
        "LANGSMITH_TRACING": "false",
    }
    typer.echo(
        f"API: http://127.0.0.1:{port}  (Studio: https://smith.langchain.com/studio/?baseUrl=http://127.0.0.1:{port})"
    )
    cmd = [cli, "dev", "--host", "127.0.0.1", "--port", str(port), "--no-browser", "--no-reload"]
    raise typer.Exit(subprocess.call(cmd, cwd=root, env=env))


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


evaluate = typer.Typer(help="Measure answers, retrieval, routing and cost against baselines.")
app.add_typer(evaluate, name="eval")
OutDir = Annotated[Path, typer.Option("--out", help="Run folder (results resume from it).")]


@evaluate.command("run")
def eval_run(
    dataset: Annotated[
        str, typer.Argument(help="squad2, multihop_rag, cmrc2018, or questions.jsonl")
    ],
    out: OutDir = Path("eval-out"),
    configs: Annotated[
        str,
        typer.Option(
            help="Comma-separated: adaptive, full, single, direct (no retrieval), multi"
            " (always multi-step). direct,single,multi derive the labels (eval labels)."
        ),
    ] = "adaptive,full,single",
    limit: Annotated[int, typer.Option(help="Questions to run (0: all).")] = 30,
    sample: Annotated[
        bool, typer.Option(help="A seeded random sample instead of the first.")
    ] = True,
    corpus: Annotated[Path | None, typer.Option(help="Corpus JSONL for a custom data set.")] = None,
    settings: Settings = None,
) -> None:
    """Run the adaptive graph and its baselines on the same questions, interleaved."""
    from adaptive_rag.evaluation.harness import run_eval  # noqa: PLC0415
    from adaptive_rag.evaluation.report import build_report  # noqa: PLC0415

    try:
        run_eval(
            dataset,
            out,
            tuple(c.strip() for c in configs.split(",") if c.strip()),
            limit,
            sample,
            corpus=corpus,
            context=settings_from_pairs(settings),
        )
    except (ValueError, FileNotFoundError) as exc:
        raise _fail(str(exc), EXIT_BAD_CONFIG) from exc
    typer.echo(build_report(out).read_text())


@evaluate.command("routing")
def eval_routing(
    out: OutDir = Path("eval-out"),
    limit: Annotated[int, typer.Option(help="Questions (0: all 199).")] = 0,
) -> None:
    """Classify the routing set's questions and compare with its A/B/C labels."""
    from adaptive_rag.evaluation.report import build_report  # noqa: PLC0415
    from adaptive_rag.evaluation.routing import run_routing  # noqa: PLC0415
    from adaptive_rag.services import Services  # noqa: PLC0415

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
    from adaptive_rag.evaluation.report import build_report  # noqa: PLC0415
    from adaptive_rag.evaluation.rewrite_eval import run_rewrite  # noqa: PLC0415
    from adaptive_rag.services import Services  # noqa: PLC0415

    out.mkdir(parents=True, exist_ok=True)
    (out / "canard.json").write_text(json.dumps(run_rewrite(Services(no_web=True), limit=limit)))
    typer.echo(build_report(out).read_text())


@evaluate.command("followups")
def eval_followups(out: OutDir = Path("eval-out")) -> None:
    """Rewrite the bilingual follow-up set; count how often the referent is in the rewrite."""
    from adaptive_rag.evaluation.followup_eval import run_followups  # noqa: PLC0415
    from adaptive_rag.evaluation.report import build_report  # noqa: PLC0415
    from adaptive_rag.services import Services  # noqa: PLC0415

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
) -> None:
    """Fit the confidence map on the adaptive runs; print its held-out ECE, plot reliability."""
    from adaptive_rag.core.calibration import CALIBRATION_FILE  # noqa: PLC0415
    from adaptive_rag.evaluation.calibrate import fit, reliability_diagram  # noqa: PLC0415
    from adaptive_rag.evaluation.data import read_jsonl  # noqa: PLC0415

    records = [r for out in outs for r in read_jsonl(out / "results.jsonl")]
    try:
        fitted = fit(records)
    except ValueError as exc:
        raise _fail(str(exc), EXIT_BAD_CONFIG) from exc
    fitted["fitted_on"] = [str(out) for out in outs]
    target = CALIBRATION_FILE if write else outs[0] / "confidence.json"
    target.write_text(json.dumps(fitted, indent=1))
    plot = reliability_diagram(fitted, outs[0] / "reliability.png")
    typer.echo(
        f"fitted on {fitted['n']} answers (accuracy {fitted['accuracy']}); held-out ECE"
        f" {fitted['ece_held_out']}; map -> {target}; reliability diagram -> {plot}"
    )


@evaluate.command("report")
def eval_report(out: OutDir = Path("eval-out")) -> None:
    """Rebuild report.md, summary.json and the plots from a run folder."""
    from adaptive_rag.evaluation.report import build_report  # noqa: PLC0415

    typer.echo(build_report(out).read_text())


def main() -> None:
    """Run the CLI (console script entry point)."""
    app()


if __name__ == "__main__":
    main()
