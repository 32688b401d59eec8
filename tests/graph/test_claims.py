"""A yes/no question joining claims is answered claim by claim (scripted models)."""

from __future__ import annotations

import itertools
from typing import Any

QUESTION = (
    "Does the Zephyr X2 page say the kettle holds 1.7 litres, while the Aurora lamp page"
    " says the lamp uses 12 watts?"
)


def sequence(*replies: str) -> Any:
    it = itertools.chain(replies, itertools.repeat(replies[-1]))
    return lambda _user: next(it)


def test_each_claim_is_searched_and_answered_and_the_verdicts_joined(make_harness: Any) -> None:
    h = make_harness(
        rag=sequence("Yes, the kettle holds 1.7 litres [1].", "No, the Aurora lamp uses 9 watts [1]."),
    )
    out = h.ask(QUESTION)
    steps = out["diagnostics"]["steps"]
    assert steps[steps.index("decompose") :][:3] == ["decompose", "claims", "self_check"]
    assert h.model.roles()["rag"] == 2 and "assess" not in h.model.roles()
    claims = [user for role, user in h.model.calls if role == "rag"]
    assert "Question: Does the Zephyr X2 page say the kettle holds 1.7 litres?" in claims[0]
    assert "Question: Is it true that the Aurora lamp page says the lamp uses 12 watts?" in claims[1]
    assert out["answer"] == "No. The kettle holds 1.7 litres [1]. The Aurora lamp uses 9 watts [2]."
    assert out["verified"] is True
    verdict = [j for j in out["diagnostics"]["judgments"] if j["node"] == "claims"]
    assert [(j["method"], j["verdict"], j["detail"]) for j in verdict] == [
        ("rule", "no", "claims: yes, no")
    ]
    titles = [s["title"] for s in out["sources"]]
    assert "Zephyr X2" in titles and "Aurora lamp" in titles  # each claim's own search


def test_every_claim_yes_is_a_yes(make_harness: Any) -> None:
    h = make_harness(
        rag=sequence("Yes, the kettle holds 1.7 litres [1].", "Yes, the Aurora lamp uses 9 watts [1]."),
    )
    out = h.ask(QUESTION.replace("12 watts", "9 watts"))
    assert out["answer"].startswith("Yes. The kettle holds 1.7 litres [")
    assert "The Aurora lamp uses 9 watts [" in out["answer"] and out["verified"] is True


def test_a_claim_without_a_yes_or_no_leaves_the_whole_question_to_generate(
    make_harness: Any,
) -> None:
    h = make_harness(
        rag=sequence(
            "Yes, the kettle holds 1.7 litres [1].",
            "The lamp is bright [1].",
            "Yes, both pages say so [1][2].",
        ),
    )
    out = h.ask(QUESTION)
    steps = out["diagnostics"]["steps"]
    assert steps[steps.index("claims") + 1] == "generate" and h.model.roles()["rag"] == 3
    assert out["answer"].startswith("Yes, both pages say so")
    assert any("claims: a claim got no yes or no" in n for n in out["diagnostics"]["notes"])


def test_a_failed_claim_call_degrades_to_the_whole_question(make_harness: Any) -> None:
    h = make_harness(rag=sequence("Yes, the kettle holds 1.7 litres [1]."))
    calls = itertools.count()

    def flaky(_user: str) -> str:
        if next(calls) == 1:
            raise RuntimeError("model crashed")
        return "Yes, both pages say so [1][2]."

    h.model.script["rag"] = flaky
    out = h.ask(QUESTION)
    assert out["answer"].startswith("Yes, both pages say so") and out["answerable"] is True
    assert any(f["node"] == "claims" for f in out["failures"])


def test_an_unsupported_sentence_leaves_the_verdict_unverified_not_written_again(
    make_harness: Any,
) -> None:
    h = make_harness(
        rag=sequence("Yes, the kettle holds 1.7 litres [1].", "Yes, the lamp costs 80 euros [1]."),
    )
    out = h.ask(QUESTION.replace("12 watts", "9 watts"))
    assert h.model.roles()["rag"] == 2 and "regenerate" not in h.model.roles()
    assert out["answer"].startswith("Yes. The kettle holds 1.7 litres [")
    assert out["verified"] is False and "Unverified" in out["answer"]
