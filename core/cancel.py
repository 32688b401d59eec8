"""Cooperative cancellation: a cancelled async run tells the worker thread its model should stop."""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextvars import ContextVar
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

_STOP: ContextVar[threading.Event | None] = ContextVar("adaptive_rag_stop", default=None)


class RunCancelled(BaseException):
    """The run this call belongs to was cancelled; a BaseException so no node degrades on it."""


def cancelled() -> bool:
    """Whether the run of the calling thread has been cancelled."""
    stop = _STOP.get()
    return stop is not None and stop.is_set()


def cancellable() -> bool:
    """Whether the calling thread works for a run that can be cancelled (see `watched`)."""
    return _STOP.get() is not None


def raise_if_cancelled() -> None:
    """Stop the current model call (between tokens) when its run was cancelled."""
    if cancelled():
        raise RunCancelled("the run was cancelled")


def watched(stop: threading.Event, func: Callable[P, T]) -> Callable[P, T]:
    """Return func running with `stop` as its run's cancellation signal (set it to cancel)."""

    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        token = _STOP.set(stop)
        try:
            return func(*args, **kwargs)
        finally:
            _STOP.reset(token)

    return run
