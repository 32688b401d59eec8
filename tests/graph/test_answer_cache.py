"""A repeated question gets its earlier answer with no model call, until the knowledge base changes."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from adaptive_rag import Context, Services, build_graph
from adaptive_rag.knowledge.opening import open_store
from adaptive_rag.knowledge.retriever import HybridRetriever
from fake_sources import SAMPLE, HashEmbeddings
from fakes import K2_BATTERY, ScriptedChatModel

QUESTION = "How long does the Kestrel K2 battery last?"


class Cached:
    """The graph over a real knowledge base (and its answer cache): Chroma in a temp dir, or PostgreSQL."""

    def __init__(self, tmp_path: Path, **script: Any) -> None:
        self.docs = tmp_path / "docs"
        self.kb = open_store(
            str(tmp_path / "kb"), "cache", "test:hash", create=True, embeddings=HashEmbeddings()
        )
        self.kb.ingest([str(SAMPLE)], progress=False)
        self.model = ScriptedChatModel.with_script(**{"rag": K2_BATTERY, **script})
        self.graph = build_graph(
            services=Services(
                chat_model=self.model,
                knowledge=self.kb,
                retriever=HybridRetriever(kb=self.kb, k=4),
                no_web=True,
            )
        )

    def ask(self, question: str = QUESTION, **context: Any) -> dict[str, Any]:
        calls = len(self.model.calls)
        out = self.graph.invoke({"question": question}, context=Context(**context))
        out["model_calls_made"] = len(self.model.calls) - calls
        return out


@pytest.fixture
def cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, store: str) -> Cached:
    monkeypatch.setenv("ADAPTIVE_RAG_DATA", str(tmp_path / "data"))
    return Cached(tmp_path)


def test_the_same_question_again_is_answered_with_no_model_call(cached: Cached) -> None:
    first = cached.ask()
    assert first["diagnostics"]["answer_cache"] == "miss" and first["model_calls_made"] > 0
    started = time.perf_counter()
    again = cached.ask()
    took = time.perf_counter() - started
    assert again["model_calls_made"] == 0 and again["diagnostics"]["model_calls"] == 0
    assert again["diagnostics"]["answer_cache"] == "hit"
    assert again["diagnostics"]["steps"] == ["intake", "recall", "finalize"]
    assert any("answer cache" in n for n in again["diagnostics"]["notes"])
    for name in ("answer", "sources", "confidence", "verified", "answerable", "route", "language"):
        assert again[name] == first[name], name
    assert again["messages"][-1].content == first["messages"][-1].content
    print(f"\ncached answer: {took * 1000:.1f} ms, 0 model calls")
    # the same words in other case, spacing and closing punctuation are the same question
    assert cached.ask("how long does the  Kestrel K2 battery last")["model_calls_made"] == 0


def test_another_question_or_other_settings_are_answered_afresh(cached: Cached) -> None:
    cached.ask()
    assert cached.ask("What is the IP rating of the Kestrel K2?")["model_calls_made"] > 0
    assert cached.ask(k=2)["model_calls_made"] > 0  # other settings, other answer
    assert cached.ask(k=2)["model_calls_made"] == 0


def test_an_unchecked_answer_is_kept_with_its_setting(cached: Cached) -> None:
    first = cached.ask(answer_check="off")
    assert first["verified"] is False and first["answerable"] is True  # not checked
    again = cached.ask(answer_check="off")
    assert again["diagnostics"]["answer_cache"] == "hit" and again["model_calls_made"] == 0
    assert cached.ask()["model_calls_made"] > 0  # checked answers are kept apart


def test_an_answer_written_by_other_code_is_not_returned(
    cached: Cached, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another release, prompt or confidence map writes other answers: the old ones don't hold."""
    from adaptive_rag.schema import answer_scope

    cached.ask()
    writer = answer_scope.answer_writer()
    assert len(writer) == 16 and writer == answer_scope.answer_writer()  # stable within a release
    monkeypatch.setattr(answer_scope, "answer_writer", lambda: "another-release")
    assert cached.ask()["diagnostics"]["answer_cache"] == "miss"
    assert cached.ask()["model_calls_made"] == 0


def test_a_changed_node_writes_under_another_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rule changed in a node (not a prompt) writes other answers: the cached ones don't hold."""
    from adaptive_rag.schema import answer_scope

    real = answer_scope.resources.files
    before = answer_scope.answer_writer.__wrapped__()
    nodes = tmp_path / "nodes"
    shutil.copytree(str(real("adaptive_rag.nodes")), nodes)
    (nodes / "generate.py").write_text((nodes / "generate.py").read_text() + "\n# changed\n")
    monkeypatch.setattr(
        answer_scope.resources, "files", lambda p: nodes if p == "adaptive_rag.nodes" else real(p)
    )
    assert answer_scope.answer_writer.__wrapped__() != before


def test_ingest_or_delete_forgets_the_answers(cached: Cached, tmp_path: Path) -> None:
    cached.ask()
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "note.md").write_text("# Note\n\nThe Kestrel K2 battery now lasts 20 months.\n")
    cached.kb.ingest([str(extra)], progress=False)
    assert cached.ask()["diagnostics"]["answer_cache"] == "miss"
    assert cached.ask()["model_calls_made"] == 0
    cached.kb.delete(str(extra / "note.md"))
    assert cached.ask()["model_calls_made"] > 0


def test_off_and_declined_are_not_cached(tmp_path: Path, store: str) -> None:
    h = Cached(tmp_path, rag="The sources do not say.")
    off = h.ask(answer_cache=False)
    assert (
        "recall" not in off["diagnostics"]["steps"] and off["diagnostics"]["answer_cache"] == "off"
    )
    h.ask()  # declined (the model said the sources do not say): nothing kept
    assert h.ask()["model_calls_made"] > 0


def test_an_answer_is_returned_for_a_day_only(
    cached: Cached, monkeypatch: pytest.MonkeyPatch
) -> None:
    from adaptive_rag.knowledge.chroma import answers as chroma_answers
    from adaptive_rag.knowledge.postgres import answers as postgres_answers
    from adaptive_rag.nodes.remember import KEPT_FOR

    clock = [1_000_000.0]  # the cache's clock, so a slow machine cannot expire it early
    for module in (chroma_answers, postgres_answers):
        monkeypatch.setattr(module, "time", SimpleNamespace(time=lambda: clock[0]))
    cached.ask()
    clock[0] += KEPT_FOR - 1
    assert cached.ask()["model_calls_made"] == 0
    clock[0] += 2
    assert cached.ask()["model_calls_made"] > 0  # expired


def test_only_the_same_words_get_the_earlier_answer(cached: Cached) -> None:
    cached.ask()
    same = cached.ask(f"  {QUESTION.upper()}  ")
    assert same["model_calls_made"] == 0 and same["diagnostics"]["answer_cache"] == "hit"
    assert any(repr(QUESTION) in n for n in same["diagnostics"]["notes"])  # says which question
    near = cached.ask("How long does the Kestrel K2 battery last, roughly?")
    assert near["model_calls_made"] > 0  # a near-identical question is answered afresh


def test_a_broken_cache_costs_the_answer_nothing(
    cached: Cached, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("the cache store went away")

    cached.ask()
    monkeypatch.setattr("adaptive_rag.knowledge.chroma.answers.ChromaAnswers.find", broken)
    monkeypatch.setattr("adaptive_rag.knowledge.postgres.answers.PostgresAnswers.find", broken)
    out = cached.ask()
    assert out["answerable"] is True and out["model_calls_made"] > 0
    assert out["failures"][0]["node"] == "recall"


def test_an_injected_retriever_is_cached_only_with_its_knowledge_base(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, store: str
) -> None:
    monkeypatch.setenv("ADAPTIVE_RAG_DATA", str(tmp_path / "data"))
    h = Cached(tmp_path)
    retriever = HybridRetriever(kb=h.kb, k=4)
    alone = build_graph(services=Services(chat_model=h.model, retriever=retriever, no_web=True))
    for _ in range(2):
        out = alone.invoke({"question": QUESTION}, context=Context())
        assert "recall" in out["diagnostics"]["steps"]
        assert out["diagnostics"]["answer_cache"] == "miss"  # no knowledge base named: none kept
    assert Services(retriever=retriever).knowledge_for(Context()) is None
    assert Services(retriever=retriever, knowledge=h.kb).knowledge_for(Context()) is h.kb


def test_with_nothing_injected_the_contexts_knowledge_base_keeps_the_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, store: str
) -> None:
    monkeypatch.setenv("ADAPTIVE_RAG_DATA", str(tmp_path / "data"))
    h = Cached(tmp_path)
    opened: list[tuple[str, ...]] = []

    def open_knowledge_base(*named: str) -> Any:
        opened.append(named)
        return h.kb

    monkeypatch.setattr("adaptive_rag.services.open_knowledge_base", open_knowledge_base)
    context = Context(kb_path="kb", collection="cache")
    assert Services().knowledge_for(context) is h.kb
    assert opened == [("kb", "cache", context.embedding_model)]
    cached = Services().answers(context)
    assert cached is not None and cached[1] == h.kb.revision()
