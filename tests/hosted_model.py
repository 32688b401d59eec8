"""Helpers for the tests against an OpenAI-compatible model server (tests/e2e/test_openai_*).

The agent's settings for the sample knowledge base, a callback that records each model call, and
how long the server keeps computing after a cancel (its CPU time, read from /proc).
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
from adaptive_rag import Context
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.outputs import LLMResult

ALIAS = "qwen2.5-coder-1.5b-instruct"
"""The name the server answers to: the agent's ADAPTIVE_RAG_CHAT_MODEL is openai:<this>."""
MODEL_NODES = ("classify", "assess", "generate", "hop")
"""The nodes that call the chat model on these questions (grading, the check and decompose do not;
classify only for a question the knowledge base holds no likely source for)."""
KB = "Quillon Labs: Kestrel sensors, Heron hubs, warranty, returns, support"
SIMPLE = "How long does the Kestrel K2 battery last at the default reporting interval?"
COMPARE = "Compare the warranty of the Kestrel sensors and the Heron hub."
ELSEWHERE = "Who wrote the novel Moby-Dick?"
"""No rule routes it (it asks no definition) and the sample holds no likely source for it: with
general questions declined the model routes it (else it is asked of the model directly)."""


def context(kb_dir: Path, **settings: Any) -> Context:
    return Context(
        kb_path=str(kb_dir), collection="quillon", kb_description=KB, answer_cache=False, **settings
    )


class Calls(BaseCallbackHandler):
    """Each model call of a run: its node, the tokens it streamed, and what it reported."""

    def __init__(self, watch: str = "", on_event: Any = None) -> None:
        self.calls: dict[UUID, dict[str, Any]] = {}
        self.watch, self.on_event = watch, on_event
        self.lock = threading.Lock()  # parallel branches start calls at once

    def on_chat_model_start(
        self, serialized: Any, messages: Any, *, run_id: UUID, **kwargs: Any
    ) -> None:
        node = (kwargs.get("metadata") or {}).get("langgraph_node", "")
        with self.lock:
            self.calls[run_id] = {"node": node, "times": [], "ended": False, "message": None}

    def on_llm_new_token(self, token: str, *, run_id: UUID, **kwargs: Any) -> None:
        call = self.calls[run_id]
        call["times"].append(time.monotonic())
        if call["node"] == self.watch and self.on_event:
            self.on_event("token")

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        call = self.calls[run_id]
        call["ended"], call["message"] = True, getattr(response.generations[0][0], "message", None)
        if call["node"] == self.watch and self.on_event:
            self.on_event("end")

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        self.calls[run_id]["ended"] = True

    def of(self, node: str) -> list[dict[str, Any]]:
        return [call for call in self.calls.values() if call["node"] == node]


FREED_WITHIN = 1.0
"""Seconds from a cancel until the server has stopped writing the cancelled reply."""
TOKENS_WITHIN = 3
"""Or, on a machine so busy that a token takes longer than a third of that, this many tokens."""


def pace(times: list[float]) -> float:
    """Return the longest of the last two gaps between streamed tokens (the server's pace now)."""
    return max(later - earlier for earlier, later in zip(times[-3:], times[-2:], strict=False))


POLL = 0.05
"""Seconds between two reads of the server's CPU time: how precisely `busy_until` measures."""


def freed_within(times: list[float]) -> float:
    """Return the seconds a cancel may take to stop the server, at the pace it was writing."""
    return max(FREED_WITHIN, TOKENS_WITHIN * pace(times)) + POLL


def busy_until(pid: int, started: float, quiet: float = 0.3, limit: float = 60.0) -> float:
    """Return seconds from `started` until the process last used CPU before `quiet` idle seconds.

    CPU time, not a request's wall time: on a shared 2-core machine another job can make even a
    short prompt take seconds, but it cannot make an idle server compute.
    """

    def ticks() -> int:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime

    last, since = ticks(), time.monotonic()
    while time.monotonic() - started < limit:
        time.sleep(POLL)
        now = ticks()
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return max(since - started, 0.0)
    raise AssertionError(f"the server computed for {limit:g} s after the cancel")


def first_token_after(url: str) -> float:
    """Ask the server for a short streamed reply; return the seconds to its first token."""
    started = time.monotonic()
    body = {
        "model": ALIAS,
        "messages": [{"role": "user", "content": f"Say OK. ({time.monotonic_ns()})"}],
        "max_tokens": 2,
        "stream": True,
    }
    with httpx.stream("POST", f"{url}/chat/completions", json=body, timeout=120) as response:
        for line in response.iter_lines():
            if '"content"' in line:
                return time.monotonic() - started
    raise AssertionError("the server streamed no token")
