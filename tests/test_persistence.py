"""Threads survive a restart: SQLite by default, PostgreSQL when POSTGRES_URI is set."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from adaptive_rag import Context, Services, build_graph
from fake_sources import KeywordRetriever, kb_docs
from fakes import ScriptedChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.sqlite import SqliteSaver
from servers import unavailable

QUESTIONS = ("How big is the Zephyr X2 kettle?", "How long does it take to boil?", "and the lamp?")


def services(model: ScriptedChatModel) -> Services:
    return Services(chat_model=model, retriever=KeywordRetriever(docs=kb_docs()), no_web=True)


def run_turns_across_restarts(open_saver: Any) -> None:
    """Each turn opens a new saver and graph, as a restarted process would."""
    config = {"configurable": {"thread_id": f"t-{uuid.uuid4()}"}}
    model = ScriptedChatModel.with_script(
        rewrite="How long does the Zephyr X2 kettle take to boil?"
    )
    for question in QUESTIONS:
        with open_saver() as saver:
            graph = build_graph(saver, services=services(model))
            out = graph.invoke({"question": question}, config, context=Context(history_turns=1))
            assert out["answer"]
    with open_saver() as saver:
        messages = build_graph(saver, services=services(model)).get_state(config).values["messages"]
    assert [m.content for m in messages if isinstance(m, HumanMessage)] == list(QUESTIONS)
    assert sum(isinstance(m, AIMessage) for m in messages) == 3
    # the rewrite saw only the last turn (history_turns=1), however long the thread is
    last_rewrite = [user for role, user in model.calls if role == "rewrite"][-1]
    assert "How long does it take to boil?" in last_rewrite
    assert "How big is the Zephyr X2 kettle?" not in last_rewrite


def test_sqlite_threads_survive_restarts(tmp_path: Path) -> None:
    path = str(tmp_path / "threads.sqlite")
    run_turns_across_restarts(lambda: SqliteSaver.from_conn_string(path))


@pytest.fixture
def postgres_uri() -> Iterator[str]:
    uri = os.environ.get("POSTGRES_URI", "")
    if not uri:
        unavailable("POSTGRES_URI is not set (scripts/test-env starts a PostgreSQL and sets it)")
    yield uri


@pytest.mark.server
def test_postgres_threads_survive_restarts(postgres_uri: str) -> None:
    from langgraph.checkpoint.postgres import PostgresSaver

    def open_saver() -> AbstractContextManager[Any]:
        class Opened:
            def __enter__(self) -> Any:
                self._cm = PostgresSaver.from_conn_string(postgres_uri)
                saver = self._cm.__enter__()
                saver.setup()
                return saver

            def __exit__(self, *exc: Any) -> None:
                self._cm.__exit__(*exc)

        return Opened()

    run_turns_across_restarts(open_saver)
