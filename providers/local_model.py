"""The embedded chat model: Qwen2.5-Coder-1.5B-Instruct on llama.cpp, one call at a time.

Its weights come from `providers/local_weights.py`; here they are loaded, each call streams its
tokens under the run's message id within a timeout, and reports its usage and, when asked, the
log-probabilities of its tokens.
"""

from __future__ import annotations

import atexit
import importlib
import os
import threading
import time
from collections.abc import Iterator
from typing import Any, NamedTuple

from adaptive_rag.core.environment import env_seconds
from adaptive_rag.providers.local_weights import (
    INSTALL_HINT,
    MODEL_FILE,
    LocalModelError,
    model_path,
)
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.utils.utils import LC_ID_PREFIX

_LOCK = threading.RLock()  # re-entrant: _generate may delegate to _stream
DEFAULT_TIMEOUT = 180.0
"""Seconds one call may spend writing (ADAPTIVE_RAG_LOCAL_TIMEOUT overrides it)."""


class Written(NamedTuple):
    """One completion: its tokens, why it stopped, and its prompt (all, and those reused)."""

    parts: list[str]
    finish: str | None
    prompt: int
    reused: int
    """Prompt tokens llama.cpp did not compute: a prefix kept from the last call, or restored."""
    logprobs: list[dict[str, Any]]
    """Per token, in OpenAI's shape (token, logprob, top_logprobs), when asked for."""


def _evaluated(client: Any, reset: bool = False) -> int:
    """Return llama.cpp's own count of prompt tokens computed since the last reset."""
    import llama_cpp

    if reset:
        llama_cpp.llama_perf_context_reset(client.ctx)
        return 0
    return int(llama_cpp.llama_perf_context(client.ctx).n_p_eval)


def _write(
    client: Any, messages: list[dict[str, Any]], params: dict[str, Any], run_manager: Any
) -> Written:
    """Stream one completion (tokens to the run manager) within the timeout; hold the lock."""
    limit = env_seconds("ADAPTIVE_RAG_LOCAL_TIMEOUT", DEFAULT_TIMEOUT)
    deadline = time.monotonic() + limit  # the clock starts when the model is ours
    parts: list[str] = []
    odds = (
        _Odds(client, int(params.pop("top_logprobs", 0) or 0))
        if params.pop("logprobs", None)
        else None
    )
    if odds is not None:
        params["logits_processor"] = [odds]
    finish = None
    _evaluated(client, reset=True)  # count this call's prompt evaluation alone
    chunks = client.create_chat_completion(messages=messages, stream=True, **params)
    try:
        for chunk in chunks:
            if time.monotonic() > deadline:  # in-process: stop writing, like a timeout
                raise TimeoutError(
                    f"the local model wrote for more than {limit:g} s (ADAPTIVE_RAG_LOCAL_TIMEOUT)"
                )
            choice = chunk["choices"][0]
            text = (choice.get("delta") or {}).get("content") or ""
            if text:
                parts.append(text)
                if run_manager is not None:  # every token under the run's id, as streamed models do
                    piece = ChatGenerationChunk(
                        message=AIMessageChunk(content=text, id=message_id(run_manager))
                    )
                    run_manager.on_llm_new_token(text, chunk=piece)  # raises when cancelled
            finish = choice.get("finish_reason") or finish
    finally:
        chunks.close()  # a timeout or a cancelled run stops llama.cpp here, mid-answer
    prompt = max(int(client.n_tokens) - len(parts), 0)
    computed = min(max(_evaluated(client), 1), prompt)  # a one-token tail is not counted there
    return Written(parts, finish, prompt, prompt - computed, odds.content if odds else [])


class _Odds:
    """A logits processor that keeps each written token's top log-probabilities.

    llama-cpp-python gives logprobs only to a model loaded with logits_all (the logits of every
    prompt token: context length × vocabulary floats); a processor sees the one row sampled from.
    """

    def __init__(self, client: Any, top: int) -> None:
        self.client, self.top = client, max(top, 1)
        self.content: list[dict[str, Any]] = []

    def __call__(self, _ids: Any, logits: Any) -> Any:
        import numpy as np

        shifted = logits - logits.max()
        logprobs = shifted - np.log(np.exp(shifted).sum())
        if self.top == 1:
            best = [int(np.argmax(logprobs))]
        elif self.top < len(logprobs):  # the few best without sorting the whole vocabulary
            few = np.argpartition(-logprobs, self.top)[: self.top]
            best = [int(i) for i in few[np.argsort(-logprobs[few])]]
        else:
            best = [int(i) for i in np.argsort(-logprobs)]
        top = [
            {
                "token": self.client.detokenize([int(i)]).decode(errors="replace"),
                "logprob": float(logprobs[i]),
            }
            for i in best
        ]
        self.content.append({**top[0], "top_logprobs": top})
        return logits


def message_id(run_manager: Any) -> str:
    """Return the id LangChain gives a streamed reply (one per call: tokens and the whole)."""
    return f"{LC_ID_PREFIX}-{run_manager.run_id}"


def load_local_model(max_tokens: int = 512, n_ctx: int = 4096) -> BaseChatModel:
    """Load the embedded model with llama.cpp (one call at a time: it is not thread-safe)."""
    try:
        importlib.import_module("llama_cpp")
        from langchain_community.chat_models import ChatLlamaCpp
    except ImportError as exc:
        raise LocalModelError(f"llama-cpp-python is not installed: {INSTALL_HINT}") from exc
    path = model_path()
    model: BaseChatModel = _serialised(ChatLlamaCpp)(
        model_path=str(path),
        n_ctx=n_ctx,
        n_threads=max(1, min(os.cpu_count() or 2, 4)),
        n_batch=256,
        temperature=0.0,
        max_tokens=max_tokens,
        rope_freq_base=0.0,  # 0 = the model's own (1e6 for Qwen); the default 10000 breaks routing
        streaming=False,  # _generate streams internally and reports usage itself
        verbose=False,
    )
    # free llama.cpp before the interpreter tears down
    atexit.register(model.client.close)  # type: ignore[attr-defined]
    return model


def _serialised(base: Any) -> Any:
    """Return a ChatLlamaCpp subclass that serialises calls and counts its usage."""

    class LockedChatLlamaCpp(base):  # type: ignore[misc]
        """ChatLlamaCpp that serialises calls, so parallel graph branches share one model."""

        def _generate(
            self,
            messages: list[BaseMessage],
            stop: list[str] | None = None,
            run_manager: CallbackManagerForLLMRun | None = None,
            **kw: Any,
        ) -> ChatResult:
            """Generate token by token (so LangGraph can stream them) and count the usage."""
            params = {**self._get_parameters(stop), **kw}
            params.pop("stream", None)
            with _LOCK:
                written = _write(
                    self.client, self._create_message_dicts(messages), params, run_manager
                )
            prompt, completion = written.prompt, len(written.parts)  # one token per chunk
            message = AIMessage(
                content="".join(written.parts),
                usage_metadata={
                    "input_tokens": prompt,
                    "output_tokens": completion,
                    "total_tokens": prompt + completion,
                    "input_token_details": {"cache_read": written.reused},
                },
                response_metadata={
                    "finish_reason": written.finish,
                    "model_name": MODEL_FILE,
                    **({"logprobs": {"content": written.logprobs}} if written.logprobs else {}),
                },
                id=message_id(run_manager) if run_manager is not None else None,
            )
            return ChatResult(generations=[ChatGeneration(message=message)])

        def _stream(
            self,
            messages: list[BaseMessage],
            stop: list[str] | None = None,
            run_manager: CallbackManagerForLLMRun | None = None,
            **kw: Any,
        ) -> Iterator[ChatGenerationChunk]:
            with _LOCK:
                yield from super()._stream(messages, stop=stop, run_manager=run_manager, **kw)

    return LockedChatLlamaCpp
