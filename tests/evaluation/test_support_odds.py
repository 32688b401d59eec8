"""Setting decline_below: odds measured outside the evaluation sample, both errors per threshold."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from adaptive_rag.evaluation.sets import load_eval_set, pick
from adaptive_rag.evaluation.support_odds import (
    EVAL_SEED,
    decline_table,
    highest_threshold,
    measure_support,
    separation,
)
from adaptive_rag.knowledge import embeddings
from adaptive_rag.services import Services
from fakes import HashEmbeddings, ScriptedChatModel

CORPUS = [
    {"doc_id": f"d{i}", "title": f"Doc {i}", "text": f"Item {i} weighs {i} kg."} for i in range(8)
]
QUESTIONS = [
    {
        "id": f"q{i}",
        "question": f"How much does item {i} weigh?",
        "answers": [f"{i} kg"],
        "gold_doc_ids": [f"d{i}"],
        "is_impossible": i % 2 == 1,
    }
    for i in range(8)
]


def test_odds_are_measured_only_on_questions_the_evaluation_does_not_score(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(embeddings, "_CACHE", {"local:multilingual-e5-small": HashEmbeddings()})
    questions, corpus = tmp_path / "questions.jsonl", tmp_path / "corpus.jsonl"
    questions.write_text("\n".join(json.dumps(q) for q in QUESTIONS))
    corpus.write_text("\n".join(json.dumps(d) for d in CORPUS))
    odd = {f"item {i} " for i in range(1, 8, 2)}  # the fake says no for the unanswerable ones
    model = ScriptedChatModel.with_script(
        assess=lambda user: "No" if any(w in user.split("Question:")[-1] for w in odd) else "Yes"
    )
    rows = measure_support(
        str(questions),
        tmp_path / "odds",
        limit=10,
        held_out=3,
        corpus=corpus,
        services=Services(chat_model=model, no_web=True),
        progress=False,
    )
    scored = {
        q["id"] for q in pick(load_eval_set(str(questions), corpus).questions, 3, True, EVAL_SEED)
    }
    assert len(rows) == 5 and not scored & {r["id"] for r in rows}
    assert all(r["support"] == (0.0 if r["impossible"] else 1.0) for r in rows)
    assert (tmp_path / "odds" / "support.jsonl").read_text().count("\n") == 5
    assert separation(rows) == 1.0


def test_the_table_counts_both_errors_and_the_threshold_keeps_wrong_declines_rare() -> None:
    rows = [
        *({"impossible": True, "support": s} for s in (0.2, 0.35, 0.5, 0.7)),
        *({"impossible": False, "support": s} for s in (0.33, *[0.8] * 9)),
    ]
    table = {r["decline_below"]: r for r in decline_table(rows)}
    assert table[0.36]["unanswerable_declined"] == "2/4"
    assert table[0.36]["answerable_declined"] == "1/10"
    assert table[0.3]["answerable_declined"] == "0/10"
    assert highest_threshold(list(table.values())) == 0.6  # 1/10 declined is still at most 10%
    assert highest_threshold(list(table.values()), most_wrong=0.0) == 0.32
    assert separation([{"impossible": True, "support": None}]) is None
