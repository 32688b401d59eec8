"""Assess: the model's odds that the sources state the answer, one signal of the decline."""

from __future__ import annotations

from typing import Any

import pytest
from adaptive_rag import Context, Services, build_graph, services
from fake_sources import KeywordRetriever, kb_docs
from fakes import OddsModel, ScriptedChatModel, ScriptedJudge

QUESTION = "How big is the Zephyr X2 kettle?"


def ask(model: ScriptedChatModel, question: str = QUESTION, **context: Any) -> dict[str, Any]:
    graph = build_graph(
        services=Services(
            chat_model=model,
            retriever=KeywordRetriever(docs=kb_docs()),
            no_web=True,
            relevance=ScriptedJudge([0.9, 0.1]),  # one likely source: assessed before writing
        )
    )
    return graph.invoke({"question": question}, context=Context(**context))


@pytest.fixture
def no_fitted_judge(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if no answerability judge were shipped: assess's odds alone decide (the rule)."""
    monkeypatch.setattr(services, "answer_judge", lambda _model: (None, "none shipped"))


def test_the_odds_are_recorded_as_a_judgment_by_the_model() -> None:
    out = ask(OddsModel(script=ScriptedChatModel.with_script().script, p_yes=0.8))
    assert out["diagnostics"]["support"] == pytest.approx(0.8)
    assessed = [j for j in out["diagnostics"]["judgments"] if j["node"] == "assess"]
    assert assessed == [
        {"node": "assess", "method": "model", "score": 0.8, "verdict": "yes", "detail": ""}
    ]


@pytest.mark.usefixtures("no_fitted_judge")
def test_without_a_fitted_judge_unlikely_odds_decline_after_writing() -> None:
    model = OddsModel(script=ScriptedChatModel.with_script().script, p_yes=0.1)
    out = ask(model, max_rewrites=0)
    assert out["answerable"] is False and out["decline"]["reason"] == "not_in_sources"
    assert "0.10" in out["decline"]["detail"]
    assert (
        out["answer"]
        == "The knowledge base does not answer this: the documents I found do not say."
    )
    zh = ask(model, "Zephyr X2 水壶的容量是多少？", max_rewrites=0)
    assert zh["answer"] == "知识库无法回答这个问题：找到的文档中没有相关说法。"
    assert ask(model, declines="never")["answerable"] is True


@pytest.mark.usefixtures("no_fitted_judge")
def test_likely_odds_answer() -> None:
    out = ask(OddsModel(script=ScriptedChatModel.with_script().script, p_yes=0.9))
    assert out["answerable"] is True and out["sources"][0]["cited"]


def test_a_bare_yes_is_not_odds_and_is_not_used() -> None:
    """A model without log-probabilities says yes to nearly everything: that is not a score."""
    out = ask(ScriptedChatModel.with_script(assess="yes"))
    assert out["diagnostics"]["support"] is None and out["answerable"] is True
    assert any("gave no odds" in n for n in out["diagnostics"]["notes"])


def test_a_failed_assessment_still_answers_and_says_so() -> None:
    out = ask(ScriptedChatModel.with_script(assess=RuntimeError("model down")))
    assert out["answerable"] is True and out["diagnostics"]["support"] is None
    assert {"node": "assess", "kind": "model_error"}.items() <= out["failures"][0].items()


def test_a_reply_that_is_neither_yes_nor_no_is_noted_and_answered() -> None:
    out = ask(ScriptedChatModel.with_script(assess="Perhaps"))
    assert out["answerable"] is True and out["diagnostics"]["support"] is None
    assert any(n.startswith("assess: the reply 'Perhaps'") for n in out["diagnostics"]["notes"])
