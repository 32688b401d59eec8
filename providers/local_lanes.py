"""Lanes: more llama.cpp contexts over the embedded model's loaded weights, one per fixed prompt.

llama.cpp reuses the longest prefix a context computed last. Every node that reads sources
shares one layout, so they reuse each other's prefix; classify opens with its own fixed
instructions, which the other nodes' prompts evict from the one context before the next
question. A lane keeps them computed. llama.cpp runs many contexts over one model
(`llama_init_from_model`); llama-cpp-python's `Llama` loads a model per object, so a lane is a
`Llama` built over the owner's model, a small fraction of a second load's memory
(docs/benchmarks.md).
"""

from __future__ import annotations

import atexit
import contextlib
import threading
from collections.abc import Iterator
from typing import Any

from langchain_core.language_models import BaseChatModel

_BUILDING = threading.Lock()


class _Borrowed:
    """The owner's loaded model, lent to a lane: the lane never frees it (the owner does)."""

    def __init__(self, owner: Any) -> None:
        self.owner = owner  # keeps the owner (and so the weights) alive as long as the lane
        self.loaded = owner._model

    def __getattr__(self, name: str) -> Any:
        return getattr(self.loaded, name)

    def close(self) -> None:
        """Leave the weights to their owner."""


@contextlib.contextmanager
def _lending(owner: Any) -> Iterator[None]:
    """Make `Llama(...)` take the owner's loaded model instead of loading the file again."""
    from llama_cpp import _internals

    load = _internals.LlamaModel
    _internals.LlamaModel = lambda **_: _Borrowed(owner)  # type: ignore[misc,assignment]
    try:
        yield
    finally:
        _internals.LlamaModel = load  # type: ignore[misc]


def open_lane(model: BaseChatModel, n_ctx: int) -> BaseChatModel:
    """Return the embedded chat model over a context of its own (same weights, same settings)."""
    from llama_cpp import Llama

    owner: Any = model.client  # type: ignore[attr-defined]
    with _BUILDING, _lending(owner):
        client = Llama(
            owner.model_path,
            n_ctx=n_ctx,
            n_threads=owner.n_threads,
            n_batch=owner.n_batch,
            rope_freq_base=0.0,  # the model's own, as the owner's
            verbose=False,
        )
    atexit.register(client.close)  # registered after the owner's: closed before its weights
    lane: BaseChatModel = model.model_copy(update={"client": client, "n_ctx": n_ctx})
    return lane
