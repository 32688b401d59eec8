"""Chat models: choose one from a provider:model string and build it once per process.

Calling a model and reading its reply's text is `providers/calls.py`.
"""

from __future__ import annotations

import os
import threading
import warnings
from typing import Any

from langchain_core.language_models import BaseChatModel

DEFAULT_OPENAI_MODEL = "openai:gpt-4o-mini"
MAX_TOKENS = 1024
LOCAL_MODEL = "local:qwen2.5-coder-1.5b-instruct-q4_k_m"


class ModelUnavailableError(RuntimeError):
    """No chat model can be built for the requested spec (missing key, package or file)."""

    failure_kind = "model_unavailable"
    """How a node reports it (core.failures)."""


def resolve_model_spec(spec: str) -> str:
    """Turn 'auto' into a concrete provider:model from the environment."""
    spec = spec.strip()
    if spec != "auto":
        return spec
    if os.environ.get("ADAPTIVE_RAG_CHAT_MODEL"):
        return os.environ["ADAPTIVE_RAG_CHAT_MODEL"]
    if os.environ.get("OPENAI_API_KEY") or os.environ.get("OPENAI_BASE_URL"):
        return DEFAULT_OPENAI_MODEL
    return LOCAL_MODEL


_MODELS: dict[str, BaseChatModel] = {}
_MODELS_LOCK = threading.Lock()


LANE_CONTEXT = 1024
"""Tokens of an embedded lane's own context: fixed instructions and one question fit."""


def load_chat_model(spec: str, lane: str = "") -> BaseChatModel:
    """Build (once per process) the chat model named by a provider:model spec.

    A `lane` names a task whose fixed instructions open every prompt (classify): the
    embedded model gives it a llama.cpp context of its own over the same weights, so those
    instructions stay computed between questions (providers/local_lanes.py). A provider keeps
    prefixes itself (prompt caching): one client serves every lane.
    """
    resolved = resolve_model_spec(spec)
    with _MODELS_LOCK:
        if resolved not in _MODELS:
            _MODELS[resolved] = _build_chat_model(resolved)
        model = _MODELS[resolved]
        if not lane or not resolved.startswith("local:"):
            return model
        key = f"{resolved}#{lane}"
        if key not in _MODELS:
            _MODELS[key] = _lane_of(model)
        return _MODELS[key]


def _lane_of(model: BaseChatModel) -> BaseChatModel:
    """Open a lane over the embedded model; if this llama-cpp-python cannot, share the model."""
    from adaptive_rag.providers.local_lanes import open_lane

    try:
        return open_lane(model, LANE_CONTEXT)
    except Exception as exc:  # a lane is a speed-up: without one every call is still answered
        note = f"no llama.cpp lane ({exc}); the task shares the model's context"
        warnings.warn(note, stacklevel=3)
        return model


def _build_chat_model(spec: str) -> BaseChatModel:
    """Build a model; raise ModelUnavailableError with a fix the user can apply."""
    provider, _, name = spec.partition(":")
    if not name:
        raise ModelUnavailableError(
            f"model spec {spec!r} is not provider:model (e.g. openai:gpt-4o-mini)"
        )
    if provider == "local":
        from adaptive_rag.providers.local_model import load_local_model
        from adaptive_rag.providers.local_weights import LocalModelError

        try:
            return load_local_model()
        except LocalModelError as exc:
            raise ModelUnavailableError(
                f"{exc}; or set OPENAI_API_KEY / OPENAI_BASE_URL to use a hosted or"
                " OpenAI-compatible model"
            ) from exc
    from langchain.chat_models import init_chat_model

    kwargs: dict[str, Any] = {"temperature": 0, "timeout": 60, "max_retries": 1}
    if provider == "openai":
        if os.environ.get("OPENAI_BASE_URL"):
            kwargs["base_url"] = os.environ["OPENAI_BASE_URL"]
            kwargs["api_key"] = os.environ.get("OPENAI_API_KEY") or "not-needed"
            # llama.cpp's and Ollama's servers ignore max_completion_tokens (langchain-openai's)
            kwargs["extra_body"] = {"max_tokens": MAX_TOKENS}
            # usage in streamed replies too (llama.cpp's server ignores this and reports none)
            kwargs["stream_usage"] = True
        elif os.environ.get("OPENAI_API_KEY"):
            kwargs["max_tokens"] = MAX_TOKENS
        else:
            raise ModelUnavailableError(f"{spec} needs OPENAI_API_KEY (or OPENAI_BASE_URL)")
    try:
        model: BaseChatModel = init_chat_model(name, model_provider=provider, **kwargs)
    except (ImportError, ValueError) as exc:
        raise ModelUnavailableError(f"cannot build {spec}: {exc}") from exc
    return model
