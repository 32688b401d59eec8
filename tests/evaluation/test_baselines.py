"""The fixed-strategy baselines run with the default Context (answer cache on) like the graph."""

from __future__ import annotations

from typing import Any

import pytest
from adaptive_rag.evaluation.baselines import (
    build_full_pipeline,
    build_multi_step,
    build_no_retrieval,
    build_single_shot,
    build_without_assess,
)
from adaptive_rag.schema.context import Context
from adaptive_rag.services import Services
from fake_sources import KeywordRetriever, kb_docs
from fakes import ScriptedChatModel


@pytest.mark.parametrize(
    "build", [build_full_pipeline, build_single_shot, build_no_retrieval, build_multi_step]
)
def test_baselines_answer_with_the_default_context(build: Any) -> None:
    services = Services(
        chat_model=ScriptedChatModel.with_script(rag="It holds 1.7 litres [1]."),
        retriever=KeywordRetriever(docs=kb_docs()),
        no_web=True,
    )
    assert Context().answer_cache  # the default that sends a first question to `recall`
    out = build(services).invoke(
        {"question": "How much does the Zephyr X2 kettle hold?"}, context=Context()
    )
    assert out["diagnostics"]["steps"][-1] == "finalize"
    assert out["answer"]


def test_the_graph_without_assess_asks_no_odds_and_still_answers() -> None:
    model = ScriptedChatModel.with_script(rag="It holds 1.7 litres [1].")
    services = Services(chat_model=model, retriever=KeywordRetriever(docs=kb_docs()), no_web=True)
    out = build_without_assess(services).invoke(
        {"question": "How much does the Zephyr X2 kettle hold?"}, context=Context()
    )
    assert "assess" in out["diagnostics"]["steps"]
    assert model.roles()["assess"] == 0 and model.roles()["rag"] == 1
    assert not [j for j in out["diagnostics"]["judgments"] if j["node"] == "assess"]
    assert out["answer"] == "It holds 1.7 litres [1]."
