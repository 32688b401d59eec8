"""An answer whose sources assess found likely to state it skips the self-check, on odds only."""

from __future__ import annotations

import math
from typing import Any

import pytest
from adaptive_rag import Context, Services, build_graph
from fakes import KeywordRetriever, ScriptedChatModel, kb_docs
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult

QUESTION = "How long does the Kestrel K2 battery last?"


class OddsModel(ScriptedChatModel):
    """A scripted model that reports the first token's log-probabilities, as OpenAI's API does."""

    p_yes: float = 0.9

    @property
    def _llm_type(self) -> str:
        return "openai-chat"

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        result = super()._generate(messages, *args, **kwargs)
        if kwargs.get("logprobs"):
            top = [
                {"token": "yes", "logprob": math.log(self.p_yes)},
                {"token": "no", "logprob": math.log(1 - self.p_yes)},
            ]
            message = result.generations[0].message
            message.response_metadata = {"logprobs": {"content": [{**top[0], "top_logprobs": top}]}}
        return result


def ask(model: ScriptedChatModel, **context: Any) -> dict[str, Any]:
    graph = build_graph(
        services=Services(chat_model=model, retriever=KeywordRetriever(docs=kb_docs()), no_web=True)
    )
    return graph.invoke({"question": QUESTION}, context=Context(**context))


def test_likely_odds_return_the_answer_unchecked() -> None:
    model = OddsModel(script=ScriptedChatModel.with_script().script, p_yes=0.8)
    out = ask(model)
    steps = out["diagnostics"]["steps"]
    assert "assess" in steps and "generate" in steps and "self_check" not in steps
    assert out["diagnostics"]["support"] == pytest.approx(0.8)
    assert out["answerable"] is True and out["verified"] is False  # returned, but not checked
    assert "check" not in model.roles()


@pytest.mark.parametrize(("p_yes", "check_below"), [(0.45, 0.5), (0.8, 1.0)])
def test_unsure_odds_or_check_below_1_keep_the_check(p_yes: float, check_below: float) -> None:
    model = OddsModel(script=ScriptedChatModel.with_script().script, p_yes=p_yes)
    out = ask(model, check_below=check_below)
    assert "self_check" in out["diagnostics"]["steps"] and out["verified"] is True


def test_a_bare_yes_is_not_odds_and_keeps_the_check() -> None:
    """A model without log-probabilities says yes to nearly everything: that is not a score."""
    model = ScriptedChatModel.with_script(assess="yes")
    out = ask(model)
    assert out["diagnostics"]["support"] == 1.0
    assert "self_check" in out["diagnostics"]["steps"] and out["verified"] is True


def test_only_a_first_single_step_answer_goes_unchecked() -> None:
    """A rewrite after a failed check, or a synthesis, is checked whatever assess said."""
    from adaptive_rag.graph.edges import after_generate

    base: dict[str, Any] = {
        "documents": kb_docs()[:1],
        "assured": True,
        "settings": {"self_check": True, "check_confident": True},
    }
    assert after_generate({**base, "mode": "rag"}) == "finalize"  # type: ignore[typeddict-item]
    for mode in ("regenerate", "synthesis"):
        assert after_generate({**base, "mode": mode}) == "self_check"  # type: ignore[typeddict-item]
    assert after_generate({**base, "mode": "rag", "assured": False}) == "self_check"  # type: ignore[typeddict-item]
