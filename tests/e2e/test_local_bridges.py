"""The real embedded model on the made-up bridge questions: facts no model knows, among distractors.

Each question names a thing ("the inventor of the Halden valve") whose answer is in a second
document that names only the bridge ("Oskar Brevik was born in Korrvik"), in English and
Chinese. The offline tier checks that search finds both documents (tests/knowledge/test_graph.py);
this tier checks what the embedded model answers over them.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from adaptive_rag import Context, build_graph
from adaptive_rag.core.text import answers_in
from adaptive_rag.evaluation.data import read_jsonl
from adaptive_rag.evaluation.metrics import contains
from adaptive_rag.knowledge.chroma.store import ChromaStore
from servers import unavailable

pytestmark = pytest.mark.local_model

if importlib.util.find_spec("llama_cpp") is None:
    unavailable("the real-model tier needs the `local` extra")

BRIDGE = Path(__file__).resolve().parents[1] / "data" / "bridge"
QUESTIONS = read_jsonl(BRIDGE / "questions.jsonl")
RIGHT_AT_LEAST = 7
"""Of the 12 questions, the answers that should hold their gold answer: more than half (the count
moves by one between machines with the same code: docs/benchmarks.md, the made-up bridges)."""


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[dict[str, Any]]]:
    folder = tmp_path_factory.mktemp("bridge-kb")
    kb = ChromaStore.open(str(folder / "kb"), "bridges", create=True)
    kb.ingest([str(BRIDGE / "corpus.jsonl")], progress=False)
    graph = build_graph()
    context = Context(kb_path=str(folder / "kb"), collection="bridges", answer_cache=False)
    outs = []
    for question in QUESTIONS:
        out = graph.invoke({"question": question["question"]}, context=context)
        read = [str(s["title"]) for s in out["sources"]]
        print(question["id"], out["route"]["category"], read, "->", out["answer"][:160])
        outs.append(out)
    yield outs


def test_bridge_answers_hold_the_fact_behind_the_bridge(answers: list[dict[str, Any]]) -> None:
    right = [
        question["id"]
        for question, out in zip(QUESTIONS, answers, strict=True)
        if out.get("answerable", True) and contains(out["answer"], question["answers"]) == 1.0
    ]
    assert len(right) >= RIGHT_AT_LEAST, f"right: {right}"


def test_bridge_answers_are_in_the_askers_language_and_cite_what_they_read(
    answers: list[dict[str, Any]],
) -> None:
    for question, out in zip(QUESTIONS, answers, strict=True):
        if not out.get("answerable", True):
            continue
        assert answers_in(out["answer"], question["language"]), out["answer"]
        assert any(s["cited"] for s in out["sources"]), out["answer"]
