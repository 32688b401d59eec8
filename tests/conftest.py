"""Shared fixtures: a graph wired to scripted fakes, run one question at a time."""

from __future__ import annotations

from typing import Any

import pytest
from adaptive_rag import Context, Services, build_graph
from fakes import FakeWeb, KeywordRetriever, ScriptedChatModel, kb_docs


@pytest.fixture(autouse=True)
def _no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests never see real keys or endpoints."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "TAVILY_API_KEY", "ADAPTIVE_RAG_CHAT_MODEL"):
        monkeypatch.delenv(name, raising=False)


class Harness:
    """A graph over fakes; `ask` runs one question and returns the output state."""

    def __init__(self, model: ScriptedChatModel, retriever: Any, web: FakeWeb | None) -> None:
        self.model = model
        self.retriever = retriever
        self.web = web
        self.graph = build_graph(
            services=Services(
                chat_model=model, retriever=retriever, web_search=web, no_web=web is None
            )
        )

    def ask(self, question: str, **context: Any) -> dict[str, Any]:
        return self.graph.invoke({"question": question}, context=Context(**context))


@pytest.fixture
def make_harness() -> Any:
    def make(web: FakeWeb | None = None, retriever: Any = None, **script: Any) -> Harness:
        return Harness(
            ScriptedChatModel.with_script(**script),
            retriever if retriever is not None else KeywordRetriever(docs=kb_docs()),
            web,
        )

    return make
