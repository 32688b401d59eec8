"""A no is stated by its source when one cited sentence holds the focus and negates."""

from __future__ import annotations

from adaptive_rag.core.grounding import focus_of, stated_no
from adaptive_rag.core.grounding.stated import answers_no, source_sentences

TRAVEL = (
    "Flights are booked in economy class. Business class is not reimbursed, also not on\n"
    "long-haul flights.\n- Trains for trips under 700 km."
)


def test_an_answer_opening_or_leading_with_a_no_answers_no() -> None:
    assert answers_no("No, you cannot [1].")
    assert answers_no("不可以[1]。") and answers_no("春节期间配送中心不发货[1]。")
    assert not answers_no("Yes, you can, but not on Sundays [1].")
    assert not answers_no("The fee is 15 % [1].")


def test_a_wrapped_line_does_not_end_a_sentence_but_a_list_item_does() -> None:
    sentences = source_sentences(TRAVEL)
    assert "Business class is not reimbursed, also not on long-haul flights." in sentences
    assert sentences[-1] == "Trains for trips under 700 km."


def test_a_negating_sentence_holding_the_focus_states_the_no() -> None:
    question = "Can I fly business class on a long-haul business trip?"
    answer = "No, you cannot fly business class on a long-haul business trip [1]."
    focus = focus_of(question, [TRAVEL])
    assert stated_no(question, answer, [TRAVEL], focus).startswith("Business class is not")
    assert stated_no(question, "Yes, you can [1].", [TRAVEL], focus) == ""
    assert stated_no(question, answer, [TRAVEL], None) == ""  # not a yes/no, or nothing read


def test_a_source_missing_the_focus_states_nothing() -> None:
    question = "Can I bring my dog to the office?"
    page = "Pets are not allowed in the warehouse."
    assert stated_no(question, "No [1].", [page], focus_of(question, [page])) == ""
