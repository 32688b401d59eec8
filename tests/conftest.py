"""Shared fixtures: a graph wired to scripted fakes, run one question at a time."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from adaptive_rag import Context, Services, build_graph
from adaptive_rag.providers import chat, local_model, local_weights
from fake_sources import FakeWeb, KeywordRetriever, kb_docs
from fakes import ScriptedChatModel, ScriptedJudge
from stores import chroma_alone, pg_schemas, private_postgres, store  # noqa: F401  (fixtures)


@pytest.fixture(autouse=True)
def _offline(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests never see real keys; only the real-model tier may load the embedded model."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "TAVILY_API_KEY", "ADAPTIVE_RAG_CHAT_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("KNOWLEDGE_URI", raising=False)  # the `store` fixture sets it
    if request.node.get_closest_marker("local_model") is None:

        def blocked(*args: Any, **kwargs: Any) -> Any:
            raise local_weights.LocalModelError(
                "the embedded model is off in the offline test tier"
            )

        monkeypatch.setattr(local_model, "load_local_model", blocked)
        monkeypatch.setattr(chat, "_MODELS", {})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test marked `chroma` runs on the Chroma store alone (tests/stores.py)."""
    chroma_alone(items)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Write pytest's closing counts where scripts/test-tiers asks, for its line per tier."""
    path = os.environ.get("ADAPTIVE_RAG_TIER_COUNTS")
    if path:
        parts, _ = terminalreporter.build_summary_stats_line()
        Path(path).write_text(", ".join(text for text, _ in parts))


class Harness:
    """A graph over fakes; `ask` runs one question and returns the output state."""

    def __init__(
        self,
        model: ScriptedChatModel,
        retriever: Any,
        web: FakeWeb | None,
        relevance: ScriptedJudge | None = None,
    ) -> None:
        self.model = model
        self.retriever = retriever
        self.web = web
        self.relevance = relevance or ScriptedJudge([0.9])
        self.graph = build_graph(
            services=Services(
                chat_model=model,
                retriever=retriever,
                web_search=web,
                no_web=web is None,
                relevance=self.relevance,
            )
        )

    def ask(self, question: str, **context: Any) -> dict[str, Any]:
        return self.graph.invoke({"question": question}, context=Context(**context))


@pytest.fixture
def make_harness() -> Any:
    def make(
        web: FakeWeb | None = None,
        retriever: Any = None,
        relevance: ScriptedJudge | None = None,
        **script: Any,
    ) -> Harness:
        return Harness(
            ScriptedChatModel.with_script(**script),
            retriever if retriever is not None else KeywordRetriever(docs=kb_docs()),
            web,
            relevance,
        )

    return make


@pytest.fixture
def heuristic_confidence(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rate confidence with the heuristic, not the shipped map: its orderings are what is tested."""
    from adaptive_rag.nodes import finalize

    monkeypatch.setattr(finalize, "confidence_map", lambda: None)
