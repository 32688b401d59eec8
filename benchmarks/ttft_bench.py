"""Time to the first answer token, per route: what a chat user waits before text appears."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from adaptive_rag.graph.builder import build_graph
from adaptive_rag.schema.context import Context
from adaptive_rag.services import Services
from langchain_core.messages import AIMessageChunk


def first_token(graph: Any, question: str, ctx: Context) -> dict[str, Any]:
    """Stream one run; return when its first answer token and its end arrived, and its route."""
    started = time.perf_counter()
    first, route = None, "?"
    for mode, chunk in graph.stream(
        {"question": question}, context=ctx, stream_mode=["messages", "values"]
    ):
        if mode == "messages" and first is None and isinstance(chunk[0], AIMessageChunk):
            first = time.perf_counter() - started  # only the answer streams as tokens
        elif mode == "values" and chunk.get("route"):
            route = chunk["route"]["category"]
    total = time.perf_counter() - started
    return {"route": route, "ttft_s": first if first is not None else total, "total_s": total}


def run(
    kb_path: str,
    collection: str,
    questions: list[str],
    rounds: int,
    progress: Callable[[str], None],
) -> list[dict[str, Any]]:
    """Per route: median time to first answer token and to the whole answer (embedded model)."""
    services = Services(no_web=True)
    ctx = Context(kb_path=kb_path, collection=collection, answer_cache=False)
    graph = build_graph(services=services)
    first_token(graph, "Good morning, who are you?", ctx)  # load the models; not a measured one
    results = []
    for round_ in range(rounds):
        for question in questions:
            result = first_token(graph, question, ctx)
            progress(f"round {round_ + 1}: {question[:50]!r}: {result}")
            results.append(result)
    rows = []
    for route in sorted({r["route"] for r in results}):
        group = [r for r in results if r["route"] == route]
        rows.append(
            {
                "route": route,
                "runs": len(group),
                "ttft_p50_s": round(statistics.median(r["ttft_s"] for r in group), 2),
                "total_p50_s": round(statistics.median(r["total_s"] for r in group), 2),
                "ttft_share": round(
                    statistics.median(r["ttft_s"] / r["total_s"] for r in group), 2
                ),
            }
        )
    return rows
