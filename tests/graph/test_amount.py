"""An answer to how much, how many or how long that states no amount fails the check.

"How loud is the Zephyr X2?" answered "It is quite loud when boiling [1]." puts a quality in
place of the figure asked for, whether the sources hold the figure or not (core.grounding.amount).
The loop writes the answer again; a question about the knowledge base's own things that is still
answered with no amount is declined, not marked unverified.
"""

from __future__ import annotations

from typing import Any

VAGUE = "The Zephyr X2 kettle is quite loud when it boils [1]."


def test_an_owned_question_answered_with_no_amount_is_written_again_then_declined(
    make_harness: Any,
) -> None:
    h = make_harness(rag=VAGUE, regenerate=VAGUE, retry=VAGUE)
    out = h.ask("How loud is the Zephyr X2 kettle?", max_rewrites=0)
    assert h.model.roles()["regenerate"] + h.model.roles()["retry"] >= 1  # written again
    assert out["answerable"] is False and out["decline"]["reason"] == "unsupported"
    assert "quite loud" not in out["answer"]
    checks = [j for j in out["diagnostics"]["judgments"] if j["node"] == "self_check"]
    assert any("states none" in j["detail"] for j in checks if j["verdict"] == "unsupported")


def test_the_amount_written_again_from_the_sources_stands(make_harness: Any) -> None:
    h = make_harness(rag=VAGUE, regenerate="The Zephyr X2 kettle boils in 3 minutes [1].")
    out = h.ask("How long does the Zephyr X2 kettle take to boil?", max_rewrites=0)
    assert out["answerable"] is True and out["verified"] is True
    assert out["answer"].startswith("The Zephyr X2 kettle boils in 3 minutes")


def test_an_amount_in_words_or_a_question_of_another_kind_is_not_failed(
    make_harness: Any,
) -> None:
    words = make_harness(rag="The Zephyr X2 kettle boils in three minutes [1].")
    out = words.ask("How long does the Zephyr X2 kettle take to boil?", max_rewrites=0)
    assert "regenerate" not in words.model.roles() and out["verified"] is True
    what = make_harness(rag="Returns are accepted with a receipt [1].")
    out = what.ask("What do returns need?", max_rewrites=0)
    assert "regenerate" not in what.model.roles() and out["verified"] is True


def test_with_the_check_off_the_answer_is_returned_as_written(make_harness: Any) -> None:
    h = make_harness(rag=VAGUE)
    out = h.ask("How loud is the Zephyr X2 kettle?", answer_check="off", max_rewrites=0)
    assert out["answer"].startswith(VAGUE.removesuffix(" [1]."))
    assert "regenerate" not in h.model.roles()
