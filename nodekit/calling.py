"""The model calls nodes make: count their cost, and turn a failure into a typed value."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from adaptive_rag.core.failures import Part, failed
from adaptive_rag.knowledge.sources import retrieve
from adaptive_rag.providers.calls import Reply, call_model, call_yes_no, parse_json
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.updates import Update
from adaptive_rag.schema.values import JudgeMethod, Judgment
from adaptive_rag.services import Services
from langchain_core.documents import Document
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langgraph.config import get_stream_writer
from pydantic import BaseModel

T = TypeVar("T", bound=BaseModel)
Pick = Callable[[Context], BaseChatModel]
"""Which model a node calls: Services.chat or Services.fast."""


def _lines(value: object) -> list[str]:
    """Return a log update (one line, or lines) as a list to append to."""
    if isinstance(value, str):
        return [value]
    return [str(line) for line in value] if isinstance(value, list | tuple) else []


def _number(value: object) -> int:
    """Return a counter update's increment (0 for none)."""
    return value if isinstance(value, int) else 0


def progress(event: dict[str, object]) -> None:
    """Send a node's progress event to the run's custom stream (nothing outside a run)."""
    try:
        write = get_stream_writer()
    except RuntimeError:  # called outside a run (a node's unit test)
        return
    write(event)


def note(update: Update, line: str) -> None:
    """Add a note (what degraded, in words) to a node's update, after any it already holds."""
    update["notes"] = [*_lines(update.get("notes")), line]


def _note_degraded(update: Update, node: str, docs: list[Document]) -> None:
    """Note when one of the two searches failed and the other served alone."""
    degraded = next((d.metadata["degraded"] for d in docs if d.metadata.get("degraded")), "")
    if degraded:
        note(update, f"{node}: {degraded}; used the other search alone")


def search_for(
    update: Update,
    node: str,
    services: Services,
    ctx: Context,
    query: str,
    then: str | None,
    seeds: Sequence[str] = (),
) -> list[Document] | None:
    """Search the knowledge base (k sources) for a node: counted, a search that served alone noted.

    `seeds` start the entity graph's walk. A failed search (store down, no knowledge base) gives
    None. It is noted as the node's typed failure, with `then` saying what the node does instead;
    with `then` None the search was a probe, whose failure is left to the node that searches next
    (neither counted nor noted).
    """
    try:
        docs = retrieve(services.retriever_for(ctx, seeds), query, ctx.k)
    except Exception as exc:
        if then is not None:
            update["retrievals"] = 1
            note_failure(update, node, "retrieval", exc, then)
        return None
    update["retrievals"] = 1
    _note_degraded(update, node, docs)
    return docs


def note_failure(update: Update, node: str, part: Part, exc: BaseException, then: str) -> None:
    """Add a typed failure and its note to a node's update, after any it already holds."""
    described = failed(node, part, exc, then)
    earlier = [f for f in update.get("failures") or [] if not isinstance(f, str)]
    update["failures"] = [*earlier, described["failure"]]
    note(update, described["note"])


def judged(
    update: Update,
    node: str,
    method: JudgeMethod,
    score: float | None,
    verdict: str,
    detail: str = "",
) -> Judgment:
    """Record a judgment in a node's update (after any it already holds) and return it."""
    judgment = Judgment(
        node=node,
        method=method,
        score=None if score is None else round(float(score), 4),
        verdict=verdict,
        detail=detail,
    )
    earlier = [j for j in update.get("judgments") or [] if not isinstance(j, str)]
    update["judgments"] = [*earlier, judgment]
    return judgment


def count(update: Update, reply: Reply) -> None:
    """Add a call's cost to a node's update, which may already hold an earlier call's."""
    update["model_calls"] = _number(update.get("model_calls")) + 1
    update["tokens_in"] = _number(update.get("tokens_in")) + reply.tokens_in
    update["tokens_out"] = _number(update.get("tokens_out")) + reply.tokens_out
    update["tokens_cached"] = _number(update.get("tokens_cached")) + reply.tokens_cached


def ask(
    update: Update, node: str, model: Pick, ctx: Context, messages: list[BaseMessage], then: str
) -> str | None:
    """Call a model for its text; on failure record it (node, what the run does instead).

    `model` picks the model from the Context (Services.chat or .fast), so a model that cannot
    even be built fails here too, like any call.
    """
    reply = ask_streamed(update, node, model, ctx, messages, then, stream=False)
    return reply.text if reply else None


def ask_streamed(
    update: Update,
    node: str,
    model: Pick,
    ctx: Context,
    messages: list[BaseMessage],
    then: str,
    *,
    stream: bool = True,
) -> Reply | None:
    """Call a model whose tokens stream to chat clients (the answer); return the whole reply.

    A streamed answer also brings its tokens' log-probabilities where the model gives them.
    """
    try:
        reply = call_model(model(ctx), messages, stream=stream, logprobs=stream)
    except Exception as exc:
        note_failure(update, node, "model", exc, then)
        return None
    count(update, reply)
    return reply


def ask_json(
    update: Update,
    node: str,
    model: Pick,
    ctx: Context,
    messages: list[BaseMessage],
    schema: type[T],
    then: str,
) -> T | None:
    """Call a model for JSON of `schema`; an unreadable reply is a failure like a failed call."""
    try:
        reply = call_model(model(ctx), messages, schema)
    except Exception as exc:
        note_failure(update, node, "model", exc, then)
        return None
    count(update, reply)
    try:
        return parse_json(reply.text, schema)
    except ValueError as exc:
        note_failure(update, node, "model", exc, then)
        return None


def ask_yes_no(
    update: Update, node: str, model: Pick, ctx: Context, messages: list[BaseMessage], then: str
) -> Reply | None:
    """Call a model for one yes/no token; None when it failed or said neither (`yes` is P(yes))."""
    try:
        reply = call_yes_no(model(ctx), messages)
    except Exception as exc:
        note_failure(update, node, "model", exc, then)
        return None
    count(update, reply)
    if reply.yes is None:
        note(update, f"{node}: the reply {reply.text[:40]!r} is neither yes nor no; {then}")
        return None
    return reply
