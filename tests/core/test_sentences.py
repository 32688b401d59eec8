"""An answer's sentences keep the citations they end, and rewriting citations keeps the words."""

from __future__ import annotations

import pytest
from adaptive_rag.core.grounding import split
from adaptive_rag.core.grounding.sentences import recite


def spans(answer: str) -> list[tuple[str, tuple[int, ...]]]:
    return [(s.text, s.cites) for s in split(answer)]


def test_sentences_cover_the_answer_and_keep_their_citations() -> None:
    answer = (
        "The fee is 10 % [1]. Refunds take 10 business days.[2] Yes.\n\n"
        "- Slow green blink: normal [3].\nThe range is 1.5 km, e.g. in a field [1, 2]!"
    )
    sentences = split(answer)
    assert "".join(answer[s.start : s.end] for s in sentences) == answer
    assert spans(answer) == [
        ("The fee is 10 %.", (1,)),
        ("Refunds take 10 business days.", (2,)),
        ("Yes.", ()),
        ("- Slow green blink: normal.", (3,)),
        ("The range is 1.5 km, e.g. in a field!", (1, 2)),
    ]


def test_chinese_sentences_and_citations_standing_before_a_sentence() -> None:
    assert spans("[2][3] Heron hub 的保修期是两年。Kestrel 传感器享有三年保修[1]。") == [
        ("Heron hub 的保修期是两年。", (2, 3)),
        ("Kestrel 传感器享有三年保修。", (1,)),
    ]
    # a marker after a full stop ends the sentence before it, unless that one has its own
    assert spans("Heron 网关享有两年保修。[2]") == [("Heron 网关享有两年保修。", (2,))]
    assert spans("A is 1 [1]. [2] B is 2.") == [("A is 1.", (1,)), ("B is 2.", (2,))]


@pytest.mark.parametrize(
    ("span", "keep", "add", "rewritten"),
    [
        ("[2][3] Heron hub 的保修期是两年。", [2], [], "Heron hub 的保修期是两年[2]。"),
        ("[2][3] Heron warranty is two years.\n", [2], [], "Heron warranty is two years [2].\n"),
        ("The fee is 15 % [1].  ", [], [], "The fee is 15 %.  "),
        ("The fee is 15 % [1, 2].", [2], [], "The fee is 15 % [2]."),
        ("The fee is 10 %.\n", [], [2], "The fee is 10 % [2].\n"),
        ("手续费为 10%。", [], [1], "手续费为 10%[1]。"),
        (
            "K2 costs 249 EUR [1] and the pack 1,099 EUR [3].",
            [1],
            [2],
            "K2 costs 249 EUR [1] and the pack 1,099 EUR [2].",
        ),
        ("Kept as written [1][2].", [1, 2], [], "Kept as written [1][2]."),
        ("No stop at the end [4]", [], [1], "No stop at the end [1]"),
    ],
)
def test_recite(span: str, keep: list[int], add: list[int], rewritten: str) -> None:
    assert recite(span, keep, add) == rewritten


def test_list_numbers_do_not_end_sentences() -> None:
    assert [s.text for s in split("1. Hold it [1].\n12. It ends at 5. Done")] == [
        "1. Hold it.",
        "12. It ends at 5.",
        "Done",
    ]


def test_a_unit_or_an_answer_no_ends_a_sentence_an_initial_or_a_number_sign_does_not() -> None:
    assert [s.text for s in split("It prints 250 mm/s. This is the top speed.")] == [
        "It prints 250 mm/s.",
        "This is the top speed.",
    ]
    assert [s.text for s in split("No. The warranty ends.")] == ["No.", "The warranty ends."]
    assert [s.text for s in split("It runs on 12 V. Charge it at 25 °C. Done")] == [
        "It runs on 12 V.",
        "Charge it at 25 °C.",
        "Done",
    ]
    assert [s.text for s in split("No.\n2. The fee is 10 %.")] == ["No.", "2. The fee is 10 %."]
    assert [s.text for s in split("Ask J. Smith about No. 5 today.")] == [
        "Ask J. Smith about No. 5 today."
    ]
