"""What the embedded model reports per call: prompt tokens reused from the last call, and stops."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from adaptive_rag.core.cancel import RunCancelled, watched
from adaptive_rag.providers import local_model
from adaptive_rag.providers.calls import StopWhenCancelled, token_usage
from adaptive_rag.providers.local_model import _write
from langchain_core.callbacks import BaseCallbackHandler, CallbackManager
from langchain_core.messages import AIMessage


class FakeLlama:
    """llama-cpp-python's state that matters here: the token ids it holds from the last call."""

    def __init__(self, reply_tokens: int = 3) -> None:
        self.input_ids = [0] * 4096
        self.n_tokens = 0
        self.evaluated = 0  # what llama.cpp's perf counter (n_p_eval) says
        self.reply_tokens = reply_tokens
        self.closed = False

    def create_chat_completion(self, messages: list[dict[str, Any]], **_: Any) -> Iterator[Any]:
        prompt = [sum(map(ord, w)) for m in messages for w in m["content"].split()]
        held = self.input_ids[: self.n_tokens]
        pairs = enumerate(zip(held, prompt[:-1], strict=False))
        kept = next((i for i, (a, b) in pairs if a != b), None)
        kept = min(len(held), len(prompt) - 1) if kept is None else kept
        self.evaluated = len(prompt) - kept  # llama.cpp keeps the longest common prefix

        def tokens() -> Iterator[dict[str, Any]]:
            try:
                for n in range(self.reply_tokens):
                    ids = [*prompt, *range(n + 1)]
                    self.input_ids[: len(ids)], self.n_tokens = ids, len(ids)
                    yield {"choices": [{"delta": {"content": f"t{n} "}, "finish_reason": None}]}
            finally:
                self.closed = True

        return tokens()


@pytest.fixture(autouse=True)
def _perf_counter(monkeypatch: pytest.MonkeyPatch) -> None:
    def evaluated(client: FakeLlama, reset: bool = False) -> int:
        return 0 if reset else client.evaluated

    monkeypatch.setattr(local_model, "_evaluated", evaluated)


def ask(llama: FakeLlama, text: str, run_manager: Any = None) -> Any:
    return _write(llama, [{"role": "user", "content": text}], {}, run_manager)


def test_a_shared_prefix_is_counted_as_reused_not_computed() -> None:
    llama = FakeLlama()
    sources = "preamble " + " ".join(f"source{i}" for i in range(20))
    first = ask(llama, f"{sources} grade these")
    assert (first.prompt, first.reused) == (23, 0)  # nothing held before the first call
    second = ask(llama, f"{sources} now answer the question")
    assert (second.prompt, second.reused) == (25, 21)  # the preamble and sources, not the task
    again = ask(llama, f"{sources} now answer the question")
    assert again.reused == again.prompt - 1  # llama.cpp always computes the last prompt token
    other = ask(llama, "a different question entirely")
    assert other.reused == 0


def test_reused_tokens_reach_the_usage_that_nodes_count() -> None:
    message = AIMessage(
        "x",
        usage_metadata={
            "input_tokens": 25,
            "output_tokens": 3,
            "total_tokens": 28,
            "input_token_details": {"cache_read": 21},
        },
    )
    assert token_usage(message) == (25, 3, 21)
    openai = AIMessage(
        "x",
        response_metadata={
            "token_usage": {
                "prompt_tokens": 1200,
                "completion_tokens": 5,
                "prompt_tokens_details": {"cached_tokens": 1024},
            }
        },
    )
    assert token_usage(openai) == (1200, 5, 1024)


class CancelAfter(BaseCallbackHandler):
    """Cancels the run once `n` tokens were written, as runs.cancel would mid-answer."""

    def __init__(self, stop: threading.Event, n: int) -> None:
        self.stop, self.n, self.written = stop, n, 0

    def on_llm_new_token(self, *args: Any, **kwargs: Any) -> None:
        self.written += 1
        if self.written == self.n:
            self.stop.set()


def test_a_cancelled_run_stops_the_completion_and_closes_it() -> None:
    llama, stop = FakeLlama(reply_tokens=50), threading.Event()
    spy = CancelAfter(stop, 5)
    manager = CallbackManager(handlers=[StopWhenCancelled(), spy])
    run = manager.on_chat_model_start({}, [[]])[0]
    with pytest.raises(RunCancelled):
        watched(stop, ask)(llama, "a long answer please", run)
    assert llama.closed and spy.written == 5  # stopped at the next token, generator closed
