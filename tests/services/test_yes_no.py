"""A yes/no question read as odds: from log-probabilities where a model gives them, else its word."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from adaptive_rag.prompts import assess
from adaptive_rag.prompts.reading import reading_messages
from adaptive_rag.providers import local_model
from adaptive_rag.providers.calls import call_yes_no, yes_probability
from adaptive_rag.providers.local_model import _write
from fakes import ScriptedChatModel


def odds(*pairs: tuple[str, float]) -> dict[str, Any]:
    """OpenAI's logprobs shape (as langchain-openai and the embedded model report it)."""
    top = [{"token": t, "logprob": math.log(p)} for t, p in pairs]
    return {"logprobs": {"content": [{**top[0], "top_logprobs": top}]}}


def test_yes_is_weighed_against_no_among_the_first_tokens() -> None:
    p = yes_probability(odds(("Yes", 0.6), ("No", 0.2), (" yes", 0.1), ("The", 0.1)), "Yes")
    assert p == pytest.approx(0.7 / 0.9)
    assert yes_probability(odds(("否", 0.9), ("是", 0.1)), "否") == pytest.approx(0.1)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Yes.", 1.0),
        ("no, it does not", 0.0),
        ("是", 1.0),
        ("否。", 0.0),
        ("Perhaps", None),
        ("", None),
    ],
)
def test_without_odds_the_reply_word_is_read(text: str, expected: float | None) -> None:
    assert yes_probability({}, text) == expected
    assert yes_probability(odds(("Maybe", 0.9)), text) == expected  # odds that hold neither


def test_a_model_without_odds_is_asked_plainly() -> None:
    model = ScriptedChatModel.with_script(assess="No")
    reply = call_yes_no(model, reading_messages([], assess.TASK.format(question="q")))
    assert reply.yes == 0.0 and reply.tokens_in > 0
    assert reply.odds is False  # a word, not a score: the answerability judge never reads it


class OddsLlama:
    """llama-cpp-python's completion loop as far as a logits processor sees it."""

    def __init__(self, logits: list[float]) -> None:
        self.logits = np.array(logits, dtype=np.single)
        self.n_tokens = 0

    def detokenize(self, ids: list[int]) -> bytes:
        return ["Yes", "No", "Maybe"][ids[0]].encode()

    def create_chat_completion(self, messages: Any, **params: Any) -> Iterator[Any]:
        assert "logprobs" not in params and params["max_tokens"] == 1  # logits_all is off

        def tokens() -> Iterator[dict[str, Any]]:
            for processor in params.get("logits_processor") or []:
                processor([], self.logits.copy())
            self.n_tokens = 5
            yield {"choices": [{"delta": {"content": "Yes"}, "finish_reason": "length"}]}

        return tokens()


def test_the_embedded_model_reports_odds_from_the_logits_it_samples(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(local_model, "_evaluated", lambda client, reset=False: 0)
    llama = OddsLlama([2.0, 1.0, -1.0])
    written = _write(llama, [], {"logprobs": True, "top_logprobs": 3, "max_tokens": 1}, None)
    top = written.logprobs[0]["top_logprobs"]
    assert [t["token"] for t in top] == ["Yes", "No", "Maybe"]
    assert sum(math.exp(t["logprob"]) for t in top) == pytest.approx(1.0, abs=1e-5)
    p = yes_probability({"logprobs": {"content": written.logprobs}}, "Yes")
    assert p == pytest.approx(math.e / (math.e + 1), abs=1e-5)
    plain = _write(OddsLlama([0.0, 0.0, 0.0]), [], {"max_tokens": 1}, None)
    assert plain.logprobs == []  # odds only when asked for


def test_a_reply_reports_the_mean_log_probability_of_its_tokens() -> None:
    from adaptive_rag.providers.calls import mean_logprob

    content = [{"token": "a", "logprob": -0.5}, {"token": "b", "logprob": -1.5}]
    assert mean_logprob({"logprobs": {"content": content}}) == -1.0
    assert mean_logprob({}) is None
