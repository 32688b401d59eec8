"""Yes/no questions that join claims: split by rule, verdicts joined by rule."""

from __future__ import annotations

import pytest
from adaptive_rag.core.conjunction import claims_of, joined, verdict_of


@pytest.mark.parametrize(
    ("question", "claims"),
    [
        (
            "Does the Fortune article claim that Alameda acted legally, while The Verge article"
            " reports a negative balance at Alameda?",
            [
                "Does the Fortune article claim that Alameda acted legally?",
                "Is it true that The Verge article reports a negative balance at Alameda?",
            ],
        ),
        (
            "Did the Sporting News report a win for Dallas over Seattle, and did the Sporting News"
            " also report a win for Philadelphia?",
            [
                "Did the Sporting News report a win for Dallas over Seattle?",
                "Did the Sporting News also report a win for Philadelphia?",
            ],
        ),
    ],
)
def test_a_yes_no_question_joining_claims_is_split_into_one_question_per_claim(
    question: str, claims: list[str]
) -> None:
    assert claims_of(question) == claims


@pytest.mark.parametrize(
    "question",
    [
        "Is the Kestrel K2 waterproof?",  # one claim
        "Which article was published first, while the other was updated?",  # not yes/no
        "Does the Zephyr X2 boil water while you wait?",  # too short to be a claim
        "Zephyr X2 是否防水，而 Aurora 灯是否节能？",  # Chinese is answered whole
        "Compare the Zephyr X2, and does it matter?",
    ],
)
def test_other_questions_have_no_claims(question: str) -> None:
    assert claims_of(question) == []


def test_the_verdict_is_yes_only_when_every_claim_is_and_citations_are_renumbered() -> None:
    answers = ["Yes, Fortune says Alameda acted legally [1].", "No, The Verge does not say it [2]."]
    written = joined(answers, [[1, 2], [3, 1]])
    assert written == "No. Fortune says Alameda acted legally [1]. The Verge does not say it [1]."
    assert joined(["Yes, A [1].", "Yes. B [1]."], [[1], [2]]) == "Yes. A [1]. B [2]."
    assert joined(["Yes, A [9]."], [[1]]) == "Yes. A."
    assert (verdict_of("No, it does not."), verdict_of("Yes."), verdict_of("It is.")) == (
        False,
        True,
        None,
    )
