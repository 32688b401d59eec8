"""What every command shares: the app, exit codes, option types, errors, settings."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from adaptive_rag.cli.settings import settings_from_pairs
from adaptive_rag.core.secrets import redact
from adaptive_rag.schema.context import Context

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
Collection = Annotated[
    str | None,
    typer.Option(
        "--collection",
        "-c",
        help="Collection name (default: ADAPTIVE_RAG_COLLECTION, else 'default').",
        show_default=False,
    ),
]
AllSources = Annotated[
    bool,
    typer.Option("--all-sources", help="Also list documents looked at but not cited."),
]
Settings = Annotated[
    list[str] | None,
    typer.Option("--set", help="Override a setting, FIELD=VALUE (repeatable; see README)."),
]
OutDir = Annotated[Path, typer.Option("--out", help="Run folder (results resume from it).")]


def listed(text: str) -> tuple[str, ...]:
    """Return the items of a comma-separated option, stripped, empty ones dropped."""
    return tuple(item.strip() for item in text.split(",") if item.strip())


def fail(message: str, code: int) -> typer.Exit:
    """Print an actionable error and return the exit to raise."""
    typer.secho(f"error: {redact(message)}", fg=typer.colors.RED, err=True)
    return typer.Exit(code)


def open_kb(kb_path: str, collection: str | None, create: bool) -> Any:
    """Open a knowledge base, turning its errors into exit codes."""
    from adaptive_rag.knowledge.embeddings import EmbeddingsUnavailableError
    from adaptive_rag.knowledge.errors import KnowledgeBaseError
    from adaptive_rag.knowledge.opening import open_store

    try:
        return open_store(kb_path, collection or "", create=create)
    except KnowledgeBaseError as exc:
        raise fail(str(exc), EXIT_NO_KB) from exc
    except EmbeddingsUnavailableError as exc:
        raise fail(str(exc), EXIT_NO_MODEL) from exc


def context_from(settings: list[str] | None = None, **kwargs: Any) -> Context:
    """Build a Context from options and --set pairs, turning a bad value into a clear exit."""
    try:
        given = {k: v for k, v in kwargs.items() if v is not None}
        return Context(**{**given, **settings_from_pairs(settings)})
    except ValueError as exc:
        raise fail(str(exc), EXIT_BAD_CONFIG) from exc
