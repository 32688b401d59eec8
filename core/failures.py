"""Failures as typed values: what broke, in which node, told apart by exception type, not text.

Callers (the CLI's exit codes, the eval, benchmarks) read `kind`; `message` is for people.
"""

from __future__ import annotations

import sys
from typing import Any, Literal

from adaptive_rag.core.secrets import describe
from typing_extensions import TypedDict

FailureKind = Literal[
    "model_unavailable",
    "model_unreachable",
    "model_output",
    "model_error",
    "knowledge_base_unavailable",
    "search_failed",
    "web_unavailable",
    "invalid_input",
]
Part = Literal["model", "retrieval", "web"]


class Failure(TypedDict):
    """One thing that failed this turn; the run went on without it."""

    node: str
    """The node where it happened."""
    kind: FailureKind
    """model_unavailable, model_unreachable, model_output, knowledge_base_unavailable, ..."""
    message: str
    """What failed, redacted, for people and logs."""


def kind_of(part: Part, exc: BaseException) -> FailureKind:
    """Name a failure from the part that failed and the exception's type.

    Errors that know their kind say it in a `failure_kind` class attribute (ModelUnavailableError,
    KnowledgeBaseError, ...); network errors are told by type, including the OpenAI client's.
    """
    declared = getattr(type(exc), "failure_kind", None)
    if isinstance(declared, str):
        return declared  # type: ignore[return-value]
    if part == "web":
        return "web_unavailable"
    if part == "retrieval":
        return "search_failed"
    if isinstance(exc, ConnectionError | TimeoutError) or _openai_network_error(exc):
        return "model_unreachable"
    return "model_error"


def _openai_network_error(exc: BaseException) -> bool:
    """Whether the OpenAI client could not reach its server (checked only if it is loaded)."""
    openai: Any = sys.modules.get("openai")
    error = getattr(openai, "APIConnectionError", None)
    return isinstance(error, type) and isinstance(exc, error)


class FailureNote(TypedDict):
    """A failure and its note, as a node adds them to its state update."""

    failure: Failure
    note: str


def failed(node: str, part: Part, exc: BaseException, then: str) -> FailureNote:
    """Describe a failed call: a typed failure, and a redacted note of what the run did instead."""
    message = describe(exc)
    return FailureNote(
        failure=Failure(node=node, kind=kind_of(part, exc), message=message),
        note=f"{node}: {part} failed ({message}); {then}",
    )
