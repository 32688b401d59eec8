"""A cancelled async run (what `runs.cancel` and a gone client do) stops its model mid-answer."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from adaptive_rag.core.cancel import RunCancelled, cancelled, raise_if_cancelled, watched

LONG_ANSWER = " ".join(["word"] * 400) + " [1]."  # 400 tokens at 50 ms: 20 s if never stopped


def test_a_cancelled_run_stops_writing_within_a_token_and_frees_the_model(
    make_harness: Any,
) -> None:
    h = make_harness(rag=LONG_ANSWER)
    h.model.token_delay = 0.05

    async def main() -> tuple[float, int]:
        task = asyncio.create_task(h.graph.ainvoke({"question": "How big is the Zephyr X2?"}))
        while not (h.model.roles()["rag"] and h.model.busy and h.model.tokens > 20):
            await asyncio.sleep(0.01)  # the answer is being written
        task.cancel()
        start = time.monotonic()
        with pytest.raises(asyncio.CancelledError):
            await task
        while h.model.busy and time.monotonic() - start < 10:
            await asyncio.sleep(0.01)
        return time.monotonic() - start, h.model.tokens

    stopped_after, tokens = asyncio.run(main())
    assert not h.model.busy, "the model kept writing after the run was cancelled"
    assert tokens < 200, tokens  # nowhere near the 400-token answer
    print(f"\ncancel -> model stopped: {stopped_after * 1000:.0f} ms ({tokens} tokens written)")
    h.model.token_delay = 0.0
    # the next run is not held up (the scripted words are no claim a source holds: kept as written)
    out = h.ask("How big is the Zephyr X2 kettle?", declines="never")
    assert out["answerable"] is True and h.model.roles()["rag"] == 2


def test_a_run_that_is_not_cancelled_is_untouched(make_harness: Any) -> None:
    h = make_harness()
    out = asyncio.run(h.graph.ainvoke({"question": "How big is the Zephyr X2 kettle?"}))
    assert out["answer"] == "The Zephyr X2 kettle has a 1.7 litre capacity [1]."
    assert not cancelled()  # nothing leaks into the caller's context


def test_the_signal_is_a_base_exception_so_no_node_degrades_on_it() -> None:
    import threading

    stop = threading.Event()

    def write() -> str:
        try:
            raise_if_cancelled()
        except Exception:  # what a degrading node catches
            return "degraded"
        return "written"

    assert watched(stop, write)() == "written"
    stop.set()
    with pytest.raises(RunCancelled):
        watched(stop, write)()
