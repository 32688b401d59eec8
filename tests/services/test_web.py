"""Tavily: results become web documents; every failure becomes WebSearchError, key redacted."""

from __future__ import annotations

from typing import Any

import pytest
import requests
from adaptive_rag.providers.web import TavilySearch, WebSearchError, default_web_search


class FakeClient:
    def __init__(self, result: Any) -> None:
        self.result = result

    def search(self, query: str, **kwargs: Any) -> Any:
        if isinstance(self.result, Exception):
            raise self.result
        return self.result


def tavily(result: Any) -> TavilySearch:
    search = TavilySearch(api_key="tvly-SECRET")
    search._client = FakeClient(result)
    return search


def test_results_become_web_documents() -> None:
    docs = tavily(
        {"results": [{"url": "https://a.example", "title": "A", "content": "alpha"}, {"url": "x"}]}
    ).search("q", 3)
    assert len(docs) == 1
    assert docs[0].metadata == {
        "origin": "web",
        "id": "https://a.example",
        "source": "https://a.example",
        "title": "A",
    }


@pytest.mark.parametrize(
    "result",
    [
        requests.exceptions.ConnectionError("cannot reach api with key tvly-SECRET"),
        {"error": "rate limit exceeded"},
        "not a dict",
    ],
)
def test_failures_raise_one_error_type_without_the_key(result: Any) -> None:
    with pytest.raises(WebSearchError) as info:
        tavily(result).search("q", 3)
    assert "tvly-SECRET" not in str(info.value)


def test_no_key_means_no_web(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)
    assert default_web_search() is None
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-x")
    assert isinstance(default_web_search(), TavilySearch)


def test_real_client_offline_fails_fast_as_web_search_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:9")  # nothing listens there
    with pytest.raises(WebSearchError):
        TavilySearch(api_key="tvly-invalid", timeout=5).search("anything", 1)
