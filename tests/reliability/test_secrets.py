"""Keys never appear in state, stream events, logs, answers or errors, even when quoted by a failure."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from adaptive_rag import Context, Services, build_graph
from adaptive_rag.core.secrets import describe, redact
from adaptive_rag.providers import chat
from adaptive_rag.providers.web import TavilySearch
from fake_sources import FakeWeb, KeywordRetriever, kb_docs
from fakes import ScriptedChatModel, ScriptedJudge
from langgraph.checkpoint.memory import InMemorySaver
from servers import http_server

OPENAI_KEY = "sk-test-Zq9XkY2vLmN4pR7sT1uW"
TAVILY_KEY = "tvly-dev-H8jK3mN5pQ7rS9tV"
OTHER_TOKEN = "ghp_a1B2c3D4e5F6g7H8i9J0"
SECRETS = (OPENAI_KEY, TAVILY_KEY, OTHER_TOKEN, "hunter2-pg-pass")


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    monkeypatch.setenv("TAVILY_API_KEY", TAVILY_KEY)
    monkeypatch.setenv("GITHUB_TOKEN", OTHER_TOKEN)


def assert_clean(text: str) -> None:
    for secret in SECRETS:
        assert secret not in text, f"a secret leaked: ...{text[max(0, text.find(secret) - 80) :]}"
        assert secret[:12] not in text  # not even a recognisable prefix


def test_redact_masks_environment_secrets_key_shapes_and_uri_passwords(keys: None) -> None:
    text = redact(
        f"auth {OPENAI_KEY} and {TAVILY_KEY}; Bearer {OTHER_TOKEN}; "
        "postgresql://app:hunter2-pg-pass@db:5432/x; api_key=abcdefgh12345678"
    )
    assert_clean(text)
    assert "postgresql://app:***@db:5432/x" in text and "abcdefgh12345678" not in text
    assert describe(RuntimeError(f"Incorrect API key provided: {OPENAI_KEY}")).startswith(
        "RuntimeError: Incorrect API key provided: ***"
    )


def test_failures_that_quote_keys_leave_no_key_in_state_stream_logs_or_answer(
    keys: None, caplog: pytest.LogCaptureFixture, tally: Any
) -> None:
    leak = f"Incorrect API key provided: {OPENAI_KEY} (tavily {TAVILY_KEY}, {OTHER_TOKEN})"
    model = ScriptedChatModel.with_script(classify=RuntimeError(leak), rag=PermissionError(leak))
    checkpointer = InMemorySaver()
    graph = build_graph(
        checkpointer,
        services=Services(
            chat_model=model,
            retriever=KeywordRetriever(docs=kb_docs()),
            web_search=FakeWeb(error=f"401 Unauthorized for key {TAVILY_KEY}"),
            # classify's probe keeps a source and asks the model anyway (complex_shape is not
            # auto); the search is incorrect but its source kept: with no rewrite left, the web
            # is tried, then rag
            relevance=ScriptedJudge(
                [0.5], thresholds={"keep": 0.3, "correct": 0.7, "incorrect": 0.7}
            ),
        ),
    )
    config = {"configurable": {"thread_id": "secrets"}}
    caplog.set_level(logging.DEBUG)
    chunks = list(
        graph.stream(
            {"question": "How big is the Zephyr X2 kettle?"},
            config,
            context=Context(max_rewrites=0, complex_shape="parallel"),
            stream_mode=["updates", "custom", "messages", "values", "debug"],
        )
    )
    state = graph.get_state(config)
    out = state.values
    assert "Sorry, I could not answer" in out["answer"]  # the failures really happened
    notes = out["diagnostics"]["notes"]
    assert any(
        n.startswith("web_search: web failed (WebSearchError: 401") and "***" in n for n in notes
    )
    assert any(n.startswith("classify: model failed") and "***" in n for n in notes)
    assert_clean(repr(chunks))
    assert_clean(repr(state))
    assert_clean(repr(list(graph.get_state_history(config))))
    assert_clean(repr(checkpointer.storage) + repr(checkpointer.writes))
    assert_clean(caplog.text)
    tally(faults=3)


def _unauthorized(path: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
    """Reject the key and quote it back, as the worst case of an OpenAI-compatible server."""
    key = headers.get("Authorization", "").removeprefix("Bearer ")
    message = f"Incorrect API key provided: {key}"
    return 401, json.dumps({"error": {"message": message, "type": "auth_error"}}).encode()


@pytest.fixture
def unauthorized_server() -> Iterator[str]:
    with http_server(_unauthorized) as url:
        yield f"{url}/v1"


def test_a_real_openai_client_rejected_with_its_key_quoted_leaks_nothing(
    keys: None,
    unauthorized_server: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    capfd: pytest.CaptureFixture[str],
    tally: Any,
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", unauthorized_server)
    monkeypatch.setenv("OPENAI_LOG", "debug")  # the SDK's own request logging, at its loudest
    monkeypatch.setattr(chat, "_MODELS", {})
    caplog.set_level(logging.DEBUG)
    graph = build_graph(
        InMemorySaver(),
        services=Services(retriever=KeywordRetriever(docs=kb_docs()), no_web=True),
    )
    config = {"configurable": {"thread_id": "openai"}}
    out = graph.invoke(
        {"question": "How big is the Zephyr X2 kettle?"},
        config,
        context=Context(chat_model="openai:gpt-test"),
    )
    assert "AuthenticationError" in out["answer"]  # the server really rejected the key
    captured = capfd.readouterr()
    assert_clean(repr(out) + repr(graph.get_state(config)) + caplog.text)
    assert_clean(captured.out + captured.err)
    tally(faults=1)


def test_tavily_client_errors_are_redacted_even_without_the_key_in_the_environment() -> None:
    search = TavilySearch(api_key="tvly-not-in-env-123456789")

    class Client:
        def search(self, *args: Any, **kwargs: Any) -> Any:
            raise ConnectionError("refused for api_key tvly-not-in-env-123456789")

    search._client = Client()
    with pytest.raises(Exception) as info:
        search.search("q", 3)
    assert "tvly-not-in-env" not in str(info.value)
