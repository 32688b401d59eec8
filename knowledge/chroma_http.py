"""Chroma's HTTP client with a time limit: the stock client waits forever on a hung server."""

from __future__ import annotations

import os
from typing import Any

import httpx
from adaptive_rag.services.secrets import describe

DEFAULT_TIMEOUT = 30.0
CONNECT_TIMEOUT = 5.0


class ChromaServerError(ConnectionError):
    """The Chroma server did not answer its heartbeat in time."""


def chroma_timeout() -> float:
    """Seconds a Chroma server request may take (CHROMA_TIMEOUT, default 30)."""
    raw = os.environ.get("CHROMA_TIMEOUT", "").strip()
    try:
        value = float(raw) if raw else DEFAULT_TIMEOUT
    except ValueError as exc:
        raise ValueError(f"CHROMA_TIMEOUT must be a number of seconds, got {raw!r}") from exc
    if value <= 0:
        raise ValueError(f"CHROMA_TIMEOUT must be positive, got {raw!r}")
    return value


def http_client(host: str, port: int, settings: Any) -> Any:
    """Return chromadb.HttpClient for a live server, its requests bounded by CHROMA_TIMEOUT."""
    import chromadb  # noqa: PLC0415 - heavy

    seconds = chroma_timeout()
    limit = httpx.Timeout(seconds, connect=min(CONNECT_TIMEOUT, seconds))
    try:  # the client's constructor talks to the server with no time limit: check first
        httpx.get(f"http://{host}:{port}/api/v2/heartbeat", timeout=limit).raise_for_status()
    except httpx.HTTPError as exc:
        raise ChromaServerError(
            f"Chroma server {host}:{port} is not answering ({describe(exc)})"
        ) from exc
    client = chromadb.HttpClient(host=host, port=port, settings=settings)
    session = getattr(getattr(client, "_server", None), "_session", None)
    if isinstance(session, httpx.Client):  # chromadb builds it with timeout=None
        session.timeout = limit
    return client
