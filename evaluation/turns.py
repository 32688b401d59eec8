"""Send a thread's turns to a graph, timing each node and keeping the first answer written."""

from __future__ import annotations

import time
from typing import Any, NamedTuple

from adaptive_rag.evaluation.scoring import answer_text
from adaptive_rag.schema.context import Context


def run_thread(
    graph: Any, ctx: Context, thread: dict[str, Any], questions: list[str]
) -> tuple[float, Timed]:
    """Send each question as its own turn on one thread, as a chat client would.

    Returns the seconds the turns before the last took, and the last turn (the one scored).
    A graph without conversation memory gets the same messages: `{"question": ...}` appends to
    the thread's messages whether or not a node reads them.
    """
    *earlier, last = questions
    started = time.perf_counter()
    for question in earlier:
        timed_invoke(graph, {"question": question}, thread, ctx)
    history_seconds = time.perf_counter() - started
    return history_seconds, timed_invoke(graph, {"question": last}, thread, ctx)


WRITERS = ("generate", "answer_general")
"""Nodes that write a turn's answer: `generate`, or `answer_general` from the model's knowledge
(where classify sends a general question, or a decline is answered instead)."""


class Timed(NamedTuple):
    """One turn's output state, its time per node, and the first answer written (`WRITERS`)."""

    out: dict[str, Any]
    node_seconds: dict[str, float]
    first_answer: str | None
    """Scored text (see `answer_text`) of the first non-empty answer written; None if none."""
    seconds: float
    """Wall time of the turn."""


def timed_invoke(graph: Any, inputs: dict[str, Any], config: dict[str, Any], ctx: Context) -> Timed:
    """Invoke the graph as `invoke` does, and time each node by when its update arrived.

    A node is charged the wall time since the previous update; parallel branches of one step
    share it (the first to finish is charged the wait), so the times add up to the run's.
    """
    started = time.perf_counter()
    out: dict[str, Any] = {}
    spent: dict[str, float] = {}
    first: str | None = None
    last = started
    for mode, chunk in graph.stream(inputs, config, context=ctx, stream_mode=["updates", "values"]):
        if mode == "values":
            out = chunk
            continue
        now = time.perf_counter()
        for node, update in chunk.items():
            spent[node] = spent.get(node, 0.0) + (now - last)
            last = now  # the other nodes of the same chunk finished at the same moment
            if first is None and node in WRITERS and isinstance(update, dict):
                if update.get("answer"):
                    first = answer_text(str(update["answer"]), update.get("notices") or [])
    times = {node: round(s, 3) for node, s in spent.items()}
    return Timed(out, times, first, time.perf_counter() - started)
