"""Settings read from the environment when used (so tests and users can change them)."""

from __future__ import annotations

import os


def env_seconds(name: str, default: float) -> float:
    """Read a positive number of seconds from an environment variable (unset: the default)."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError as exc:
        raise ValueError(f"{name} must be a number of seconds, got {raw!r}") from exc
    if value <= 0:
        raise ValueError(f"{name} must be positive, got {raw!r}")
    return value


def default_collection() -> str:
    """Return the knowledge base every entry point uses unless told otherwise.

    `ingest`, `demo`, `ask`, `chat` and the served graph all read ADAPTIVE_RAG_COLLECTION
    (default 'default'), so what one fills the others search.
    """
    return os.environ.get("ADAPTIVE_RAG_COLLECTION", "").strip() or "default"
