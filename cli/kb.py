"""Knowledge-base commands: ingest, list, delete, copy."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from adaptive_rag.cli.common import (
    EXIT_BAD_CONFIG,
    EXIT_NO_KB,
    Collection,
    KbPath,
    app,
    fail,
    open_kb,
)
from adaptive_rag.core.access import GROUPS, OWNER, access_metadata


@contextmanager
def writing(kb: Any) -> Iterator[None]:
    """Say so while a write waits for another process's; one that waited too long exits 3."""
    from adaptive_rag.knowledge.errors import KnowledgeBaseBusyError

    kb.on_wait = lambda message: typer.secho(message, fg=typer.colors.YELLOW, err=True)
    try:
        yield
    except KnowledgeBaseBusyError as exc:
        raise fail(str(exc), EXIT_NO_KB) from exc


@app.command()
def ingest(
    paths: Annotated[
        list[Path], typer.Argument(help="Files or folders (.txt .md .html .pdf .jsonl).")
    ],
    collection: Collection = None,
    kb_path: KbPath = "",
    owner: Annotated[
        str,
        typer.Option(
            help="User or tenant who may read them (with their groups); empty: every reader."
        ),
    ] = "",
    group: Annotated[
        list[str] | None,
        typer.Option("--group", help="A group that may read them too (repeat for several)."),
    ] = None,
) -> None:
    """Add documents to the knowledge base (unchanged files are skipped, changed ones replaced)."""
    try:
        access_metadata(owner, group or [])  # a bad name fails here, before the store opens
    except ValueError as exc:
        raise fail(str(exc), EXIT_BAD_CONFIG) from exc
    kb = open_kb(kb_path, collection, create=True)
    started = time.perf_counter()
    with writing(kb):
        report = kb.ingest([str(p) for p in paths], True, owner, tuple(group or ()))
    seconds = time.perf_counter() - started
    typer.echo(
        f"{len(report.added)} added, {len(report.replaced)} replaced,"
        f" {len(report.unchanged)} unchanged, {len(report.duplicates)} duplicates,"
        f" {len(report.failed)} failed;"
        f" {report.chunks_added} chunks added, {report.chunks_removed} removed"
        f" in {seconds:.1f}s -> {kb.count()} chunks in {kb.name!r} at {kb.location}"
    )
    for moved in report.moved:
        typer.echo(f"moved: {moved} (the copy at the old path, whose file is gone, removed)")
    for duplicate in report.duplicates:
        typer.secho(f"skipped duplicate: {duplicate}", fg=typer.colors.YELLOW, err=True)
    for failure in report.failed:
        typer.secho(f"skipped: {failure}", fg=typer.colors.YELLOW, err=True)
    if report.failed and not (report.added or report.replaced or report.unchanged):
        raise typer.Exit(1)


@app.command("list")
def list_sources(collection: Collection = None, kb_path: KbPath = "") -> None:
    """Show the sources in the knowledge base."""
    kb = open_kb(kb_path, collection, create=False)
    for entry in kb.sources():
        readers = ", ".join(filter(None, [entry[OWNER], *entry[GROUPS]])) or "everyone"
        typer.echo(f"{entry['chunks']:5d}  {entry['source']}  ({entry['title']})  [{readers}]")
    typer.echo(f"{kb.count()} chunks in {kb.name!r} at {kb.location}")


@app.command()
def delete(
    source: Annotated[str, typer.Argument(help="A source exactly as `list` shows it (or a path).")],
    collection: Collection = None,
    kb_path: KbPath = "",
    owner: Annotated[
        str, typer.Option(help="Whose source of that name (as `list` shows it); empty: public.")
    ] = "",
) -> None:
    """Remove one source and its chunks (a name under one owner; others' of that name stay)."""
    kb = open_kb(kb_path, collection, create=False)
    candidates = [source, str(Path(source).expanduser().resolve())]
    with writing(kb):
        removed = next((n for n in (kb.delete(c, owner) for c in candidates) if n), 0)
    if not removed:
        owners = sorted({e[OWNER] or "public" for e in kb.sources() if e["source"] in candidates})
        held = f"; that name is held by: {', '.join(owners)} (use --owner)" if owners else ""
        whose = f"{owner}'s" if owner else "public"
        message = f"no {whose} source {source!r} in {kb.name!r}{held}"
        raise fail(f"{message} (see `adaptive-rag list`)", 1)
    typer.echo(f"removed {removed} chunks of {source}")


@app.command("copy")
def copy_to_postgres(
    to: Annotated[
        str,
        typer.Option(
            "--to",
            help="The PostgreSQL database to copy into (postgresql://...); default: KNOWLEDGE_URI.",
        ),
    ] = "",
    collection: Collection = None,
    into: Annotated[str, typer.Option(help="The collection's name there; default: the same.")] = "",
    kb_path: KbPath = "",
    embedding_model: Annotated[
        str, typer.Option(help="The embedding model the collection was built with.")
    ] = "auto",
) -> None:
    """Copy a collection from Chroma (on disk or CHROMA_HOST) into PostgreSQL, embedding nothing."""
    import os

    from adaptive_rag.knowledge.chroma.store import ChromaStore
    from adaptive_rag.knowledge.errors import KnowledgeBaseError
    from adaptive_rag.knowledge.postgres.copying import NoEmbeddings, copy_collection, vector_size
    from adaptive_rag.knowledge.postgres.store import PostgresStore

    uri = to or os.environ.get("KNOWLEDGE_URI", "").strip()
    if not uri.startswith(("postgresql://", "postgres://")):
        raise fail(
            "name the PostgreSQL database to copy into: --to postgresql://...", EXIT_BAD_CONFIG
        )
    try:
        source = ChromaStore.open(kb_path, collection or "", embedding_model, False, NoEmbeddings())
        target = PostgresStore.open(
            uri,
            into or source.name,
            source.embedding_model,
            True,
            NoEmbeddings(),
            vector_size(source),
        )
    except KnowledgeBaseError as exc:
        raise fail(str(exc), EXIT_NO_KB) from exc

    def progress(report: Any) -> None:
        if report.copied and report.copied % 100 == 0:
            typer.echo(f"... {report.copied} documents copied", err=True)

    try:
        with writing(target):
            report = copy_collection(source, target, progress)
    except KnowledgeBaseError as exc:
        raise fail(str(exc), EXIT_NO_KB) from exc
    typer.echo(
        f"copied {report.copied} document{'' if report.copied == 1 else 's'}"
        f" ({report.chunks} chunks, {report.sections} sections)"
        f" from {source.name!r} at {source.location} to {target.name!r} at {target.location}"
        f" in {report.seconds:.1f}s; {report.unchanged} were there already."
        f" Chunks: {source.count()} in the source, {target.count()} in the copy"
    )
