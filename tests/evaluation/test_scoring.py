"""Acc, declines read from the typed output, stratified samples and paired intervals."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from adaptive_rag.evaluation.aggregate import bootstrap_interval, paired, quality
from adaptive_rag.evaluation.metrics import contains
from adaptive_rag.evaluation.scoring import answer_text, score
from adaptive_rag.evaluation.sets import EvalSet, of_kinds, pick, question
from adaptive_rag.prompts.generate import UNVERIFIED_NOTE as NOTES

UNVERIFIED_NOTE = NOTES["en"]


def test_acc_is_containment_after_normalisation() -> None:
    assert contains("The Normans came from Normandy, in France [1].", ["Normandy"]) == 1.0
    assert contains("They came from the north.", ["Normandy"]) == 0.0
    assert contains("南非德班是会议地点。", ["德班"]) == 1.0
    assert contains("No, the article says the opposite; yes is wrong.", ["No"]) == 1.0
    assert contains("Yes, although no source says when.", ["No"]) == 0.0
    assert contains("anything", [""]) == 0.0


def _q(impossible: bool = False, kind: str = "") -> dict[str, Any]:
    return question(
        "q1", "Where did the Normans come from?", ["Normandy"], ["d1"], impossible, kind
    )


def test_a_decline_is_read_from_the_typed_field_never_the_text() -> None:
    worded_like_a_decline = {"answer": "The sources do not say.", "answerable": True, "sources": []}
    declined = {
        "answer": "Normandy? The knowledge base does not answer this.",
        "answerable": False,
        "decline": {"reason": "not_in_sources", "detail": "x"},
        "sources": [],
    }
    assert score(worded_like_a_decline, _q(impossible=True))["acc"] == 0.0
    assert score(declined, _q(impossible=True))["acc"] == 1.0
    scored = score(declined, _q())  # an answerable question declined is wrong, whatever it says
    assert (
        scored["acc"] == 0.0 and scored["declined"] and scored["decline_reason"] == "not_in_sources"
    )


def test_notes_and_citations_are_not_scored() -> None:
    answer = f"From Normandy [1].\n\n{UNVERIFIED_NOTE}"
    assert answer_text(answer, [UNVERIFIED_NOTE]) == "From Normandy ."
    out = {
        "answer": answer,
        "notices": [UNVERIFIED_NOTE],
        "answerable": True,
        "sources": [{"id": 1, "cited": True}],
    }
    scored = score(out, _q())
    assert scored["acc"] == 1.0 and scored["cited"] and scored["citations_valid"]
    assert scored["language_ok"]
    listed = [{"id": 1, "cited": True}, {"id": 2, "cited": True}]
    assert score({"answer": "Normandy [1, 2].", "sources": listed}, _q())["citations_valid"]
    assert not score({"answer": "Normandy [3].", "sources": listed}, _q())["citations_valid"]


def test_samples_are_seeded_and_stratified_by_kind() -> None:
    qs = [question(str(i), "q", ["a"], [], False, "inference") for i in range(80)]
    qs += [question(f"n{i}", "q", ["a"], [], True, "null_query") for i in range(20)]
    qs += [question(f"t{i}", "q", ["a"], [], False, "temporal") for i in range(2)]
    first, again = pick(qs, 40, True, 13), pick(qs, 40, True, 13)
    assert [q["id"] for q in first] == [q["id"] for q in again] and len(first) == 40
    kinds = [q["kind"] for q in first]
    assert kinds.count("null_query") == 8 and kinds.count("temporal") >= 1


def test_kinds_narrow_the_set_and_an_unknown_kind_is_refused() -> None:
    qs = [question(str(i), "q", ["a"], [], False, "inference") for i in range(5)]
    qs += [question(f"n{i}", "q", ["a"], [], True, "null_query") for i in range(3)]
    data = EvalSet("d", qs, [])
    assert of_kinds(data, ()) is data
    kept = of_kinds(data, ("inference",))
    assert {q["kind"] for q in kept.questions} == {"inference"} and len(kept.questions) == 5
    with pytest.raises(ValueError, match="temporal"):
        of_kinds(data, ("inference", "temporal"))


def _record(qid: str, config: str, acc: float, impossible: bool = False) -> dict[str, Any]:
    return {
        "dataset": "d",
        "id": qid,
        "config": config,
        "acc": acc,
        "em": acc,
        "f1": acc,
        "impossible": impossible,
        "declined": impossible and acc == 1.0,
        "language_ok": True,
        "cited": True,
    }


def test_paired_comparison_counts_wins_and_losses_with_an_interval() -> None:
    records = []
    for i in range(40):
        records.append(_record(str(i), "adaptive", 1.0 if i < 30 else 0.0))
        records.append(_record(str(i), "single", 1.0 if i < 20 else 0.0))
    (row,) = paired(records)
    assert row["n"] == 40 and row["wins"] == 10 and row["losses"] == 0
    assert row["difference"] == 0.25 and row["verdict"] == "better"
    low, high = bootstrap_interval(np.array([1.0, -1.0] * 20))
    assert low < 0 < high  # as many losses as wins: within noise


def test_quality_reports_both_decline_errors() -> None:
    rs = [_record("a", "adaptive", 1.0, impossible=True), _record("b", "adaptive", 0.0, True)]
    rs.append({**_record("c", "adaptive", 0.0), "declined": True})
    q = quality(rs)
    assert q["declined_unanswerable"] == "1/2" and q["declined_answerable"] == "1/1"


def _said(answer: str, answerable: bool = True) -> dict[str, Any]:
    return {"answer": answer, "answerable": answerable, "sources": []}


def test_small_talk_is_right_when_answered() -> None:
    hello = question("h1", "Hello, how are you?", [], [], False, "small_talk")
    assert score(_said("Hello! I am fine, thank you."), hello)["acc"] == 1.0
    assert score(_said("Hello! [1]"), hello)["f1"] == 1.0  # no gold: EM and F1 follow Acc
    assert score(_said(""), hello)["acc"] == 0.0  # nothing said
    assert score(_said("[1]"), hello)["acc"] == 0.0  # only a citation
    assert score(_said("I cannot help.", answerable=False), hello)["acc"] == 0.0  # declined
    no_gold_but_impossible = question("h2", "Who won in 2090?", [], [], True)
    assert score(_said("Nobody knows yet."), no_gold_but_impossible)["acc"] == 0.0


def test_requires_needs_a_gold_of_every_group() -> None:
    both = {
        **question("c1", "Who founded each company?", ["Jobs", "Gates"], [], False, "comparison"),
        "requires": [["Jobs", "Steve Jobs"], ["Gates", "Bill Gates"]],
    }
    one = score(_said("Apple was founded by Steve Jobs."), both)
    assert one["acc"] == 0.0 and one["f1"] > 0  # Acc needs both; F1 is still against the golds
    assert score(_said("Steve Jobs founded Apple, Bill Gates Microsoft."), both)["acc"] == 1.0
    assert score(_said("Jobs and Gates.", answerable=False), both)["acc"] == 0.0
    assert score(_said("Jobs and Gates."), {**both, "requires": []})["acc"] == 1.0  # flat golds
    assert score(_said("Jobs and Gates."), {**both, "requires": ["Jobs", "Gates"]})["acc"] == 1.0
