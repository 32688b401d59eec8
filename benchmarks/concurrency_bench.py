"""Concurrent runs on the embedded model: do they queue cleanly or evict each other's prefix?"""

from __future__ import annotations

import contextlib
import statistics
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from adaptive_rag.core.cache import LRUCache
from adaptive_rag.evaluation.aggregate import prompt_computed
from adaptive_rag.graph.builder import build_graph
from adaptive_rag.schema.context import Context
from adaptive_rag.services import Services

STATE_CACHE_BYTES = 512 << 20
"""llama.cpp states kept in RAM when the state cache is on (each about 29 KB per token)."""


def _use_state_cache(client: Any, on: bool) -> None:
    """Start cold: drop what llama.cpp holds, with or without llama-cpp-python's LlamaRAMCache."""
    from llama_cpp.llama_cache import LlamaRAMCache

    client.reset()
    client.set_cache(LlamaRAMCache(STATE_CACHE_BYTES) if on else None)


def _batch(ask: Callable[[str], dict[str, Any]], questions: list[str]) -> dict[str, Any]:
    """Start all questions at once, as concurrent requests to one server would."""
    started = time.perf_counter()
    with ThreadPoolExecutor(len(questions)) as pool:
        outs = list(pool.map(ask, questions))
    wall = time.perf_counter() - started
    computed = prompt_computed(outs)
    return {
        "wall_s": round(wall, 1),
        "run_p50_s": round(statistics.median(o["seconds"] for o in outs), 1),
        "run_max_s": round(max(o["seconds"] for o in outs), 1),
        "prompt_computed": 1.0 if computed is None else computed,
        "errors": sum(o["error"] for o in outs),
        "degraded": sum(o["degraded"] for o in outs),
    }


MODES = ("calls interleave", "calls interleave + state cache", "one run at a time")
"""How concurrent runs share the model: the lock per call alone; with llama-cpp-python's
LlamaRAMCache restoring each prompt's saved state; or a queue per run (what `langgraph dev`
does with its default of one job per worker, and N_JOBS_PER_WORKER=1 does on LangGraph Server)."""


def run(
    kb_path: str,
    collection: str,
    questions: list[str],
    levels: list[int],
    rounds: int,
    progress: Callable[[str], None],
) -> list[dict[str, Any]]:
    """Per concurrency level and mode (interleaved): wall time, latency, prompt reuse, errors."""
    services = Services()
    ctx = Context(kb_path=kb_path, collection=collection, answer_cache=False)
    client = services.chat(ctx).client  # type: ignore[attr-defined]
    graph = build_graph(services=services)
    queue = threading.Lock()

    def ask(question: str, queued: bool) -> dict[str, Any]:
        started = time.perf_counter()
        try:
            with queue if queued else contextlib.nullcontext():
                out = graph.invoke({"question": question}, context=ctx)
        except Exception:  # a crash is what this counts; a degraded node is not one
            return {"seconds": 0.0, "tokens_in": 0, "tokens_cached": 0, "error": 1, "degraded": 0}
        d = out["diagnostics"]
        return {
            "seconds": time.perf_counter() - started,
            "tokens_in": d["tokens_in"],
            "tokens_cached": d["tokens_cached"],
            "error": 0,
            "degraded": int(bool(out.get("failures"))),  # a node failed (e.g. a timeout)
        }

    ask(questions[-1], False)  # load the embeddings and warm up before anything is timed
    rows: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for round_ in range(rounds):
        for level in levels:
            for mode in MODES if round_ % 2 == 0 else MODES[::-1]:
                _use_state_cache(client, mode == MODES[1])
                services.route_cache = LRUCache(1024)  # each batch classifies its questions anew
                batch = [questions[(round_ * level + i) % len(questions)] for i in range(level)]
                result = _batch(partial(ask, queued=mode == MODES[2]), batch)
                rows.setdefault((level, mode), []).append(result)
                progress(f"round {round_ + 1}: {level} at once, {mode}: {result}")
    _use_state_cache(client, False)
    table = []
    for (level, mode), results in sorted(
        rows.items(), key=lambda kv: (kv[0][0], MODES.index(kv[0][1]))
    ):
        row: dict[str, Any] = {"concurrent runs": level, "sharing": mode}
        for key in results[0]:
            values = [r[key] for r in results]
            summed = key in ("errors", "degraded")
            row[key] = sum(values) if summed else round(statistics.median(values), 2)
        table.append(row)
    return table
