"""The real embedded model over the sample knowledge base: its own things are never made up.

A question the documents do not answer about the sample's own products and policies is declined
(typed), never answered with a yes its sources do not hold nor from general knowledge; a
definition the documents do not hold is answered from general knowledge, labelled; a question the
documents answer keeps its cited answer.
"""

from __future__ import annotations

import importlib.util
import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from adaptive_rag import Context, build_graph
from adaptive_rag.knowledge.chroma.store import ChromaStore
from adaptive_rag.prompts import answer_general as general_prompts
from fake_sources import SAMPLE
from langgraph.checkpoint.memory import InMemorySaver
from servers import unavailable

pytestmark = pytest.mark.local_model

if importlib.util.find_spec("llama_cpp") is None:
    unavailable("the real-model tier needs the `local` extra")


@pytest.fixture(scope="module")
def ask(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    folder = tmp_path_factory.mktemp("owned-kb")
    shutil.copytree(SAMPLE, folder / "docs")
    ChromaStore.open(str(folder / "kb"), "quillon", create=True).ingest(
        [str(folder / "docs")], False
    )
    graph = build_graph(InMemorySaver())
    ctx = Context(
        kb_path=str(folder / "kb"),
        collection="quillon",
        kb_description="Quillon Labs: Kestrel sensors, Heron hubs, warranty, returns, support",
    )

    def run(question: str) -> dict[str, Any]:
        out = graph.invoke(
            {"question": question}, {"configurable": {"thread_id": question}}, context=ctx
        )
        print(question, "->", out["route"], out["decline"], out["answer"][:200])
        return out

    yield run


def general(out: dict[str, Any]) -> bool:
    return any(label in out["answer"] for label in general_prompts.LABEL.values())


@pytest.mark.parametrize(
    "question",
    [
        "退货需要支付运费吗？",
        "Can customers on a payment plan get a discount on the K2?",
        "Does the warranty cover water damage?",
        "What is the guest Wi-Fi password at the office?",
        "How many vacation days do employees get?",
    ],
)
def test_the_sources_silence_on_its_own_things_is_a_typed_decline(ask: Any, question: str) -> None:
    out = ask(question)
    assert out["answerable"] is False and out["decline"] is not None, out["answer"]
    assert out["verified"] is False and not general(out)
    assert not out["answer"].startswith(("是的", "Yes", "No,"))


@pytest.mark.parametrize("question", ["什么是集装箱？", "What is a heat pump?"])
def test_a_general_definition_is_answered_and_labelled(ask: Any, question: str) -> None:
    out = ask(question)
    assert out["answerable"] is True and general(out), out["answer"]


def test_a_question_the_documents_answer_keeps_its_cited_answer(ask: Any) -> None:
    out = ask("How long does the Kestrel K2 battery last at the default reporting interval?")
    assert out["answerable"] is True and "14" in out["answer"]
    assert any(s["cited"] and s["source"].endswith("kestrel-k2.md") for s in out["sources"])
