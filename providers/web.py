"""Web search through Tavily, with every failure turned into one typed error."""

from __future__ import annotations

import os
from typing import Any, Protocol

from adaptive_rag.core.secrets import describe, redact
from langchain_core.documents import Document


class WebSearchError(RuntimeError):
    """The web could not be searched (no key, network, rate limit, error payload)."""


class WebSearch(Protocol):
    """Anything that turns a query into web documents."""

    def search(self, query: str, max_results: int) -> list[Document]:
        """Return up to max_results documents; raise WebSearchError when unreachable."""
        ...


class TavilySearch:
    """Tavily as a WebSearch; the client is built on first use, never at import."""

    def __init__(self, api_key: str, timeout: float = 15.0, base_url: str | None = None) -> None:
        self._api_key = api_key
        self._timeout = timeout
        self._base_url = base_url  # a proxy or a test server; None is Tavily's own API
        self._client: Any = None

    def search(self, query: str, max_results: int) -> list[Document]:
        """Search Tavily and return results as documents with url and title."""
        try:
            if self._client is None:
                from tavily import TavilyClient

                self._client = TavilyClient(api_key=self._api_key, api_base_url=self._base_url)
            payload = self._client.search(
                query, max_results=max_results, timeout=max(1, int(self._timeout))
            )
        except Exception as exc:  # network, auth, rate limit: all mean "web not reached"
            raise WebSearchError(describe(exc, also=(self._api_key,))) from exc
        if not isinstance(payload, dict) or payload.get("error"):
            detail = payload.get("error") if isinstance(payload, dict) else payload
            raise WebSearchError(redact(f"Tavily answered with an error: {detail}"))
        return [
            Document(
                page_content=str(item.get("content", "")),
                metadata={
                    "origin": "web",
                    "id": str(item.get("url", "")),
                    "source": str(item.get("url", "")),
                    "title": str(item.get("title", "")) or str(item.get("url", "")),
                },
            )
            for item in payload.get("results", [])
            if item.get("content")
        ]


def default_web_search() -> WebSearch | None:
    """Return Tavily when TAVILY_API_KEY is set, else None (web search off)."""
    key = os.environ.get("TAVILY_API_KEY", "").strip()
    return TavilySearch(key) if key else None
