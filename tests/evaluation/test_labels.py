"""Derived labels: the cheapest strategy that answers; the router judged against them."""

from __future__ import annotations

from typing import Any

from adaptive_rag.evaluation.labels import derive_labels, judge_router


def run(qid: str, config: str, acc: bool, route: str = "", spent: int = 100) -> dict[str, Any]:
    return {
        "dataset": "d",
        "id": qid,
        "config": config,
        "question": f"question {qid}",
        "kind": "k",
        "acc": float(acc),
        "route": route or config,
        "tokens_in": spent,
        "tokens_out": 0,
    }


def records() -> list[dict[str, Any]]:
    rows = []
    truth = {  # direct, single, multi; adaptive's route and result
        "a": (True, True, True, "simple", True),
        "b": (False, True, True, "simple", True),
        "c": (False, False, True, "simple", False),
        "none": (False, False, False, "complex", False),
    }
    for qid, (direct, single, multi, route, adaptive) in truth.items():
        rows += [
            run(qid, "direct", direct, spent=10),
            run(qid, "single", single, spent=100),
            run(qid, "multi", multi, spent=300),
            run(qid, "adaptive", adaptive, route=route, spent=150),
        ]
    rows.append(run("partial", "single", True))  # not run by every strategy: not labelled
    return rows


def test_the_cheapest_correct_strategy_is_the_label() -> None:
    labels = {row["id"]: row["label"] for row in derive_labels(records())}
    assert labels == {"a": "A", "b": "B", "c": "C", "none": None}


def test_the_router_is_judged_on_labelled_questions_with_regret_and_oracle() -> None:
    judged = judge_router(records(), derive_labels(records()))
    assert judged["n"] == 4 and judged["labelled"] == 3
    assert judged["confusion"]["B"]["B"] == 1 and judged["confusion"]["A"]["B"] == 1
    assert judged["accuracy"] == round(1 / 3, 3)
    assert judged["needed_retrieval_recall"] == 1.0
    assert judged["regret"] == ["c"]
    strategies = {row["strategy"]: row for row in judged["strategies"]}
    assert strategies["oracle"] == {"strategy": "oracle", "acc": 0.75, "tokens_mean": 105}
    assert strategies["always multi"]["acc"] == 0.75 and strategies["adaptive"]["acc"] == 0.5
