"""Asking: one question, the demo over the sample knowledge base, and a streamed chat."""

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
from adaptive_rag.cli.common import (
    EXIT_BAD_CONFIG,
    EXIT_NETWORK,
    EXIT_NO_KB,
    EXIT_NO_MODEL,
    SAMPLE_KB,
    SAMPLE_QUESTIONS,
    AllSources,
    Collection,
    KbPath,
    Settings,
    app,
    context_from,
    fail,
)
from adaptive_rag.cli.kb import ingest
from adaptive_rag.cli.render import jsonable, print_answer, print_footer, show_step
from adaptive_rag.schema.context import Context


@contextmanager
def open_graph() -> Any:
    """Yield the agent with a durable checkpointer: PostgreSQL with POSTGRES_URI, else SQLite."""
    import os

    from adaptive_rag.graph.builder import build_graph

    uri = os.environ.get("POSTGRES_URI", "").strip()
    if uri:
        try:
            from langgraph.checkpoint.postgres import PostgresSaver
        except ImportError as exc:
            raise fail('POSTGRES_URI is set: pip install "adaptive-rag[postgres]"', 2) from exc
        try:
            with PostgresSaver.from_conn_string(uri) as saver:
                saver.setup()
                yield build_graph(saver)
        except Exception as exc:
            if isinstance(exc, typer.Exit):
                raise
            if type(exc).__module__.startswith("psycopg"):
                raise fail(f"cannot use PostgreSQL at POSTGRES_URI: {exc}", EXIT_NETWORK) from exc
            raise
        return
    from adaptive_rag.knowledge.data_folder import user_data_dir
    from langgraph.checkpoint.sqlite import SqliteSaver

    path = user_data_dir() / "threads.sqlite"
    path.parent.mkdir(parents=True, exist_ok=True)
    with SqliteSaver.from_conn_string(str(path)) as saver:
        yield build_graph(saver)


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="The question ('-' reads it from stdin).")],
    thread: Annotated[str, typer.Option("--thread", "-t", help="Continue this conversation.")] = "",
    collection: Collection = None,
    kb_path: KbPath = "",
    as_json: Annotated[bool, typer.Option("--json", help="Print the full output state.")] = False,
    all_sources: AllSources = False,
    settings: Settings = None,
) -> None:
    """Answer one question (with --thread, as a turn of a conversation)."""
    ctx = context_from(settings, collection=collection, kb_path=kb_path)
    question = _valid_question(_read_stdin() if question == "-" else question, ctx)
    thread_id = thread or str(uuid.uuid4())
    with open_graph() as graph:
        if thread:
            _require_thread(graph, thread)
        started = time.perf_counter()
        out = graph.invoke(
            {"question": question}, {"configurable": {"thread_id": thread_id}}, context=ctx
        )
        seconds = time.perf_counter() - started
    if as_json:
        typer.echo(json.dumps(jsonable(out), ensure_ascii=False, indent=2, default=str))
    else:
        print_answer(out, seconds, all_sources)
        typer.secho(f"thread: {thread_id}", fg=typer.colors.BRIGHT_BLACK)
    _exit_for(out)


def _read_stdin() -> str:
    """Read a question from standard input, which must be UTF-8 text."""
    try:
        return sys.stdin.buffer.read().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise fail(f"the question is not valid UTF-8 ({exc.reason})", EXIT_BAD_CONFIG) from exc


def _valid_question(question: str, ctx: Context) -> str:
    """Refuse what the agent would refuse (empty, binary, invalid UTF-8, too long) with exit 2."""
    from adaptive_rag.schema.checks import clean_question

    cleaned, problem = clean_question(question)
    if problem:
        raise fail(problem, EXIT_BAD_CONFIG)
    return cleaned


def _require_thread(graph: Any, thread_id: str) -> None:
    """Refuse to 'continue' a conversation that does not exist (a typo would start a new one)."""
    if not graph.get_state({"configurable": {"thread_id": thread_id}}).values:
        raise fail(
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
    collection: Collection = None,
    kb_path: KbPath = "",
    questions: Annotated[Path, typer.Option(help="JSONL of questions to ask.")] = SAMPLE_QUESTIONS,
) -> None:
    """Ingest the bundled sample into the default knowledge base and answer its questions.

    The default one, so `ask`, `chat`, `langgraph dev` and Studio answer from it afterwards.
    """
    if not SAMPLE_KB.is_dir():
        raise fail(f"the sample knowledge base is missing at {SAMPLE_KB}", 1)
    typer.echo(f"Ingesting the sample knowledge base ({SAMPLE_KB}) ...")
    ingest([SAMPLE_KB], collection=collection, kb_path=kb_path)
    ctx = context_from(
        collection=collection,
        kb_path=kb_path,
        kb_description="Quillon Labs: Kestrel sensors, Heron hubs, warranty, returns, support",
    )
    from adaptive_rag.evaluation.data import read_jsonl

    rows = read_jsonl(questions)
    typer.echo("Loading the chat model (the embedded one assembles itself on first use) ...")
    with open_graph() as graph:
        for row in rows:
            typer.secho(f"\n> {row['question']}", bold=True)
            started = time.perf_counter()
            out = graph.invoke(
                {"question": row["question"]},
                {"configurable": {"thread_id": f"demo-{uuid.uuid4()}"}},
                context=replace(ctx),
            )
            print_answer(out, time.perf_counter() - started)
            _exit_for(out)


WRITERS = ("generate", "answer_general")
"""The nodes whose tokens are the answer: streamed as they come."""


@app.command()
def chat(
    thread: Annotated[str, typer.Option("--thread", "-t", help="Resume this conversation.")] = "",
    collection: Collection = None,
    kb_path: KbPath = "",
    settings: Settings = None,
) -> None:
    """Talk with the agent: follow-ups use the conversation; steps and tokens stream live."""
    from langgraph.types import Command

    ctx = context_from(settings, collection=collection, kb_path=kb_path)
    thread_id = thread or str(uuid.uuid4())
    config = {"configurable": {"thread_id": thread_id}}
    with open_graph() as graph:
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
            if meta.get("langgraph_node") in WRITERS and chunk.content:
                streamed.append(str(chunk.content))
                typer.echo(str(chunk.content), nl=False)
            continue
        for node, update in data.items():
            if node == "__interrupt__":
                reply = input(f"agent asks> {update[0].value['question']}\nyou> ")
                return command(resume=reply)
            if node in WRITERS and streamed:
                typer.echo("")  # end the streamed line
            show_step(node, update or {})
    final = graph.get_state(config).values
    answer = str(final.get("answer", ""))
    if answer.strip() != "".join(streamed).strip():
        typer.echo(answer)  # the checked answer differs from the draft (notes, unverified, best)
    print_footer(final, time.perf_counter() - started)
    return None
