"""An open question whose answer says the sources do not say is read once more, "open".

The answer prompt asks a yes/no question to open with yes or no. A small model then answers
"What is the capacity?" with "No, the sources do not say." though its source states it: the
answer is written once more without the yes-or-no line (nodes.generate), within the
regeneration budget. A yes/no question's "the sources do not say" stands as a decline.
"""

from __future__ import annotations

from typing import Any

from adaptive_rag.prompts.generate import FORM

PRIMED = "No, the sources do not say."
STATED = "The Zephyr X2 kettle has a 1.7 litre capacity [1]."


def _reader(user: str) -> str:
    """Decline when asked to open with yes or no; read the capacity otherwise."""
    return PRIMED if FORM["any"] in user else STATED


def test_an_open_question_declined_under_the_yes_no_line_is_read_again_without_it(
    make_harness: Any,
) -> None:
    h = make_harness(rag=_reader)
    out = h.ask("What is the capacity of the Zephyr X2 kettle?", max_rewrites=0)
    prompts = [user for role, user in h.model.calls if role == "rag"]
    assert len(prompts) == 2
    assert FORM["any"] in prompts[0] and FORM["any"] not in prompts[1]
    assert out["answerable"] is True and "1.7 litre" in out["answer"]


def test_a_yes_no_question_or_a_spent_budget_is_not_read_again(make_harness: Any) -> None:
    yes_no = make_harness(rag=_reader)
    out = yes_no.ask("Is the Zephyr X2 kettle red?", max_rewrites=0)
    assert yes_no.model.roles()["rag"] == 1 and out["answerable"] is False
    spent = make_harness(rag=_reader)
    out = spent.ask(
        "What is the capacity of the Zephyr X2 kettle?", max_rewrites=0, max_regenerations=0
    )
    assert spent.model.roles()["rag"] == 1 and out["answerable"] is False


def test_an_open_question_still_declined_when_read_again_stays_declined(
    make_harness: Any,
) -> None:
    h = make_harness(rag="The sources do not say.")
    out = h.ask("What is the colour of the Zephyr X2 kettle?", max_rewrites=0)
    assert h.model.roles()["rag"] == 2
    assert out["answerable"] is False and out["decline"]["reason"] == "not_in_sources"


def test_a_reread_that_gives_only_citation_numbers_keeps_the_admission(make_harness: Any) -> None:
    h = make_harness(rag=lambda user: PRIMED if FORM["any"] in user else "The capacity is [1].")
    out = h.ask("What is the capacity of the Zephyr X2 kettle?", max_rewrites=0)
    assert h.model.roles()["rag"] == 2
    assert out["answerable"] is False and out["decline"]["reason"] == "not_in_sources"
