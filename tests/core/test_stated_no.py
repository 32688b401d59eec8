"""A no (or a yes) is stated by its source when one cited sentence holds the focus (and negates)."""

from __future__ import annotations

from adaptive_rag.core.grounding import focus_of, stated_no, stated_yes
from adaptive_rag.core.grounding.sentences import source_sentences
from adaptive_rag.core.grounding.stated import answers_no, negates

TRAVEL = (
    "Flights are booked in economy class. Business class is not reimbursed, also not on\n"
    "long-haul flights.\n- Trains for trips under 700 km."
)
BUSINESS = "Can I fly business class on a long-haul business trip?"
NO_BUSINESS = "No, you cannot fly business class on a long-haul business trip [1]."


def _stated(question: str, answer: str, page: str) -> str:
    return stated_no(question, answer, [page], focus_of(question, [page]))


def test_an_answer_opening_or_leading_with_a_no_answers_no() -> None:
    assert answers_no("No, you cannot [1].")
    assert answers_no("不可以[1]。") and answers_no("春节期间配送中心不发货[1]。")
    assert not answers_no("Yes, you can, but not on Sundays [1].")
    assert not answers_no("The fee is 15 % [1].")


def test_a_wrapped_line_does_not_end_a_sentence_but_an_item_a_row_or_a_heading_does() -> None:
    sentences = source_sentences(TRAVEL)
    assert "Business class is not reimbursed, also not on long-haul flights." in sentences
    assert sentences[-1] == "Trains for trips under 700 km."
    table = "# Models\n| K1 | Bluetooth | No |\n| K2 | Bluetooth | Yes |\nBoth print labels."
    assert source_sentences(table) == [
        "# Models",
        "| K1 | Bluetooth | No |",
        "| K2 | Bluetooth | Yes |",
        "Both print labels.",
    ]


def test_negations_are_not_a_questions_a_not_a_form_or_a_limit() -> None:
    assert negates("Codes sent by SMS are not allowed.") and negates(
        "拣货作业时不可以使用个人手机。"
    )
    assert negates("You can’t keep them.") and negates("任何人不得站在门口。")
    assert not negates("退货是不是需要运费？") and not negates("能不能带家属？")
    assert not negates("因不可抗力延误的订单照常处理。") and not negates("员工不得不加班时须登记。")
    assert not negates("Claims are paid no later than the 25th.")
    assert not negates("Write to no-reply@norhaven.example.")


def test_a_negating_sentence_holding_the_focus_states_the_no() -> None:
    assert _stated(BUSINESS, NO_BUSINESS, TRAVEL).startswith("Business class is not")
    assert _stated(BUSINESS, "Yes, you can [1].", TRAVEL) == ""
    assert stated_no(BUSINESS, NO_BUSINESS, [TRAVEL], None) == ""  # not a yes/no


def test_an_uncited_no_or_one_that_admits_the_sources_lack_something_is_not_stated() -> None:
    assert stated_no(BUSINESS, NO_BUSINESS, [], focus_of(BUSINESS, [TRAVEL])) == ""
    admits = "No, the sources do not say whether business class is allowed on long-haul trips [1]."
    assert _stated(BUSINESS, admits, TRAVEL) == ""


def test_a_sentence_with_one_of_two_focus_terms_does_not_state_it() -> None:
    page = (
        "Public holidays are paid. Without approval no employee may work more than 10 overtime"
        " hours a month."
    )
    question = "Do we get paid for overtime?"
    assert focus_of(question, [page]).held
    assert _stated(question, "No, overtime is not paid [1].", page) == ""


def test_a_source_missing_the_focus_states_nothing() -> None:
    question = "Can I bring my dog to the office?"
    assert _stated(question, "No [1].", "Pets are not allowed in the warehouse.") == ""


LEAVE = (
    "Full-time employees get 26 vacation days per year. You can carry over up to 5 unused days"
    " into the next year. If you leave during the year, your days are calculated from your end"
    " date. Salaries are paid on the 25th of each month."
)
PAYOUT = "Are unused vacation days paid out when I leave the company?"


def _yes(question: str, answer: str, page: str) -> bool:
    return stated_yes(question, answer, [page], focus_of(question, [page]))


def test_a_yes_is_stated_by_one_sentence_holding_two_thirds_of_the_focus() -> None:
    assert focus_of(PAYOUT, [LEAVE]).held  # the focus rule passes it: held, spread out
    assert not _yes(PAYOUT, "Yes, they are paid out [1].", LEAVE)
    stated = LEAVE + " Unused vacation days are paid out when you leave."
    assert _yes(PAYOUT, "Yes, they are paid out [1].", stated)
    assert _yes("Can I carry over unused days into the next year?", "Yes, up to 5 [1].", LEAVE)


def test_a_no_a_one_term_focus_or_an_unknown_focus_is_not_read() -> None:
    assert _yes(PAYOUT, "No, unused days are not paid out [1].", LEAVE)  # a no: stated_no's
    assert _yes("Is there a canteen?", "Yes [1].", "There is a canteen on the ground floor.")
    assert _yes("K2 打印机支持蓝牙吗？", "是的[1]。", "The K2 prints labels.")  # another script
    assert stated_yes(PAYOUT, "Yes [1].", [LEAVE], None)  # not a yes/no question
