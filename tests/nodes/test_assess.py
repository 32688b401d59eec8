"""Assess: the sources' odds of stating the answer decide whether an answer is written at all."""

from __future__ import annotations

from typing import Any

QUESTION = "How big is the Zephyr X2 kettle?"


def test_unlikely_support_declines_without_writing(make_harness: Any) -> None:
    h = make_harness(assess="No.")
    out = h.ask(QUESTION, decline_below=0.5)
    assert out["answerable"] is False and out["decline"]["reason"] == "not_in_sources"
    assert "0.00" in out["decline"]["detail"] and out["diagnostics"]["support"] == 0.0
    assert "generate" not in out["diagnostics"]["steps"]
    assert "rag" not in h.model.roles()  # no answer was written, so none could leak
    assert (
        out["answer"]
        == "The knowledge base does not answer this: the documents I found do not say."
    )


def test_likely_support_writes_the_answer(make_harness: Any) -> None:
    out = make_harness(assess="Yes").ask(QUESTION, decline_below=0.5)
    assert out["answerable"] is True and out["sources"][0]["cited"]
    assert out["diagnostics"]["support"] == 1.0


def test_a_zero_threshold_never_declines_but_keeps_the_odds(make_harness: Any) -> None:
    out = make_harness(assess="no").ask(QUESTION, decline_below=0.0)
    assert out["answerable"] is True and out["diagnostics"]["support"] == 0.0


def test_a_failed_assessment_still_answers_and_says_so(make_harness: Any) -> None:
    out = make_harness(assess=RuntimeError("model down")).ask(QUESTION, decline_below=0.5)
    assert out["answerable"] is True and out["diagnostics"]["support"] is None
    assert {"node": "assess", "kind": "model_error"}.items() <= out["failures"][0].items()


def test_a_reply_that_is_neither_yes_nor_no_is_noted_and_answered(make_harness: Any) -> None:
    out = make_harness(assess="Perhaps").ask(QUESTION, decline_below=0.5)
    assert out["answerable"] is True and out["diagnostics"]["support"] is None
    assert any(n.startswith("assess: the reply 'Perhaps'") for n in out["diagnostics"]["notes"])


def test_chinese_question_declines_in_chinese(make_harness: Any) -> None:
    out = make_harness(assess="否").ask("Zephyr X2 水壶的容量是多少？", decline_below=0.5)
    assert out["decline"]["reason"] == "not_in_sources"
    assert out["answer"] == "知识库无法回答这个问题：找到的文档中没有相关说法。"
