"""Chroma's HTTP client with a time limit: the stock client waits forever on a hung server."""

from __future__ import annotations

from typing import Any

import httpx
from adaptive_rag.core.environment import env_seconds
from adaptive_rag.core.secrets import describe

DEFAULT_TIMEOUT = 30.0
CONNECT_TIMEOUT = 5.0


class ChromaServerError(ConnectionError):
    """The Chroma server did not answer its heartbeat in time."""


def http_client(host: str, port: int, settings: Any) -> Any:
    """Return chromadb.HttpClient for a live server, its requests bounded by CHROMA_TIMEOUT."""
    import chromadb

    seconds = env_seconds("CHROMA_TIMEOUT", DEFAULT_TIMEOUT)
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
