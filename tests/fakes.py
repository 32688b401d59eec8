"""Scripted fake models: a chat model that answers by prompt role, and a relevance judge.

Fake retrievers, web search and embeddings are in fake_sources.py.
"""

from __future__ import annotations

import contextlib
import math
import re
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from adaptive_rag.prompts import (
    assess,
    classify,
    generate,
    hop,
    reading,
    rewrite_with_history,
    transform_query,
)
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from pydantic import ConfigDict, PrivateAttr

READING_ROLES: list[tuple[str, str]] = [
    ("regenerate", "rejected by a fact check"),
    ("assess", assess.TASK[:40]),
    ("hops_answer", generate.HOPS_TASK[:60]),
    ("hop", hop.TASK[:50]),
    ("rag", generate.RAG_TASK[:40]),
]
"""Nodes that share the reading preamble, told apart by the task after the sources."""

ROLES: list[tuple[str, str]] = [
    ("classify", classify.SYSTEM[:30]),
    ("translate", classify.TRANSLATE[:30]),
    ("rewrite", rewrite_with_history.SYSTEM[:40]),
    ("rewrite", rewrite_with_history.SYSTEM_ZH[:20]),
    ("transform", transform_query.SYSTEM[:40]),
    ("direct", generate.DIRECT_SYSTEM[:40]),
    ("talk", generate.TALK_SYSTEM[:40]),
]

Reply = str | Exception | Callable[[str], str]


def role_of(system: str, user: str = "") -> str:
    """Name the node that sent a prompt, from its system message (or task, when shared)."""
    if system == reading.PREAMBLE:
        for role, marker in READING_ROLES:
            if marker in user:
                return role
    for role, marker in ROLES:
        if marker in system:
            return role
    raise AssertionError(f"unknown prompt: {system[:80]!r}")


K2_BATTERY = "At the default interval the K2's batteries last about 14 months [1]."
"""An answer the sample knowledge base (examples/sample_kb) supports, with the amount asked for."""

DEFAULT_SCRIPT: dict[str, Reply] = {
    "classify": "simple",
    "translate": "What is the question in English?",
    "rewrite": "What is the standalone question?",
    "assess": "yes",
    "transform": "better search query",
    "rag": "The Zephyr X2 kettle has a 1.7 litre capacity [1].",
    "regenerate": "A more careful answer [1].",
    "retry": "A second try that states the fact [1].",
    "direct": "A general-knowledge answer.",
    "talk": "Hello! Ask me anything about your documents.",
    "hop": '{"finding": "", "answerable": true, "next_query": ""}',
    "hops_answer": "Answer from the hops [1][2].",
}


class ScriptedJudge:
    """A relevance judge whose probabilities are scripted: one list per search, in order.

    Classify's probe is a search: a question no rule routes is judged there first, then graded.

    A search beyond the script gets the last list again (padded with its last value); the
    thresholds are CRAG's usual cut-offs unless given.
    """

    def __init__(self, *searches: list[float], thresholds: dict[str, float] | None = None) -> None:
        self.searches = [list(s) for s in searches] or [[0.9]]
        self.thresholds = thresholds or {"keep": 0.3, "correct": 0.7, "incorrect": 0.3}
        self.calls: list[dict[str, float]] = []
        self._search, self._source = 0, 0

    def probability(self, values: dict[str, float]) -> float:
        if values.get("fused_reciprocal_rank") == 1.0 and self.calls:  # a new search starts
            self._search, self._source = self._search + 1, 0
        self.calls.append(values)
        scores = self.searches[min(self._search, len(self.searches) - 1)]
        score = scores[min(self._source, len(scores) - 1)]
        self._source += 1
        return score


_SERIAL = threading.Lock()


class ScriptedChatModel(BaseChatModel):
    """Replies by the role of the prompt; records every call (thread-safe for Send branches)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    script: dict[str, Any]
    token_delay: float = 0.0
    """Seconds between streamed tokens, for runs that must still be writing when cancelled."""
    serial: bool = False
    """One call at a time, as the embedded model serialises its calls."""
    _tokens: int = PrivateAttr(default=0)
    _busy: int = PrivateAttr(default=0)
    _calls: list[tuple[str, str]] = PrivateAttr(default_factory=list)
    _systems: list[str] = PrivateAttr(default_factory=list)
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)

    @classmethod
    def with_script(cls, **overrides: Reply) -> ScriptedChatModel:
        unknown = set(overrides) - set(DEFAULT_SCRIPT)
        assert not unknown, f"no such role {unknown}; roles: {sorted(DEFAULT_SCRIPT)}"
        return cls(script={**DEFAULT_SCRIPT, **overrides})

    @property
    def _llm_type(self) -> str:
        return "scripted"

    @property
    def calls(self) -> list[tuple[str, str]]:
        return list(self._calls)

    @property
    def systems(self) -> list[str]:
        return list(self._systems)

    def roles(self) -> Counter[str]:
        return Counter(role for role, _ in self._calls)

    @property
    def tokens(self) -> int:
        """Tokens streamed so far, over all calls."""
        return self._tokens

    @property
    def busy(self) -> bool:
        """Whether a call is still writing."""
        return self._busy > 0

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        system = str(messages[0].content)
        user = str(messages[-1].content if len(messages) > 1 else "")
        retry = system == reading.PREAMBLE and len(messages) > 2
        role = "retry" if retry else role_of(system, str(messages[1].content))
        with self._lock:
            self._calls.append((role, user))
            self._systems.extend(str(m.content) for m in messages if m.type == "system")
        reply = self.script[role]
        if isinstance(reply, Exception):
            raise reply
        text = reply(user) if callable(reply) else reply
        run_id = f"lc_run--{run_manager.run_id}" if run_manager else None
        with _SERIAL if self.serial else contextlib.nullcontext():
            return self._write(text, len(system + user), run_id, run_manager)

    def _write(self, text: str, prompt: int, run_id: str | None, run_manager: Any) -> ChatResult:
        self._busy += 1
        try:
            for piece in re.findall(r"\S+\s*|\s+", text) if run_manager else []:
                # token by token under the run's id, as the embedded model streams
                time.sleep(self.token_delay)
                chunk = ChatGenerationChunk(message=AIMessageChunk(content=piece, id=run_id))
                run_manager.on_llm_new_token(piece, chunk=chunk)  # type: ignore[union-attr]
                self._tokens += 1
        finally:
            self._busy -= 1
        message = AIMessage(
            id=run_id,
            content=text,
            usage_metadata={
                "input_tokens": prompt // 4,
                "output_tokens": len(text) // 4,
                "total_tokens": (prompt + len(text)) // 4,
            },
        )
        return ChatResult(generations=[ChatGeneration(message=message)])


class OddsModel(ScriptedChatModel):
    """A scripted model that reports the first token's log-probabilities, as OpenAI's API does."""

    p_yes: float = 0.9

    @property
    def _llm_type(self) -> str:
        return "openai-chat"

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        result = super()._generate(messages, *args, **kwargs)
        if kwargs.get("logprobs"):
            top = [
                {"token": "yes", "logprob": math.log(self.p_yes)},
                {"token": "no", "logprob": math.log(1 - self.p_yes)},
            ]
            message = result.generations[0].message
            message.response_metadata = {"logprobs": {"content": [{**top[0], "top_logprobs": top}]}}
        return result
