"""Fitting the judges: held-out folds by question, sets left out, thresholds from held-out rows."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from adaptive_rag.evaluation.judge_fit import (
    fit_logistic,
    lowest_keeping,
    out_of_fold,
    predict,
)
from adaptive_rag.evaluation.relevance_fit import fit_relevance
from judge_rows import write_chunks


def test_a_fitted_logistic_predicts_like_scikit_learn_and_ships_its_scaling() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 2)) * [1.0, 10.0] + [0.0, 50.0]
    y = (x[:, 0] + (x[:, 1] - 50) / 10 + rng.normal(scale=0.3, size=400) > 0).astype(int)
    model = fit_logistic("t", ("a", "b"), x, y)
    p = predict(model, x)
    assert ((p > 0.5) == y).mean() > 0.9
    assert model.mean[1] == pytest.approx(x[:, 1].mean())
    one = model.probability({"a": float(x[0, 0]), "b": float(x[0, 1])})
    assert one == pytest.approx(float(p[0]))


def test_held_out_rows_never_share_a_question_with_the_fit() -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(size=(60, 1))
    y = (x[:, 0] > 0).astype(int)
    groups = np.repeat(np.arange(20), 3)
    held = out_of_fold(("a",), x, y, groups)
    assert held.shape == (60,) and ((held > 0.5) == y).mean() > 0.8


def test_the_keep_threshold_keeps_the_asked_share_of_positives() -> None:
    p = np.linspace(0, 1, 101)
    y = (p > 0.3).astype(int)
    keep = lowest_keeping(p, y, 0.95)
    assert (p[y == 1] >= keep).mean() >= 0.95


def test_fit_relevance_reports_each_set_held_out_and_left_out(tmp_path: Path) -> None:
    paths = [write_chunks(tmp_path, "alpha", 40), write_chunks(tmp_path, "beta", 40)]
    fitted = fit_relevance(paths, 4, "test:hash", excluded={"alpha:0", "alpha:1"})
    report = fitted["report"]
    assert report["questions"] == 78  # two held back for the evaluation
    judge = fitted["judges"]["relevance"]
    assert judge.fitted_for == {"embedding_model": "test:hash"}
    assert 0.0 <= judge.thresholds["keep"] <= 1.0
    assert judge.thresholds["incorrect"] <= judge.thresholds["correct"]
    assert [row["set"] for row in report["relevance"]["held_out"]] == ["alpha", "beta"]
    assert [row["set"] for row in report["relevance"]["left_out"]] == ["alpha", "beta"]
    assert all(row["gold_kept"] >= 0.9 for row in report["relevance"]["held_out"])
    assert "model_grader" not in report  # experiments/model_grader.py compares the two
    keyword = fitted["judges"]["relevance_keyword"]
    assert "vector_score" not in keyword.features and keyword.fitted_for == {}


def _runs(folder: Path, name: str, n: int, seed: int) -> Path:
    from adaptive_rag.core.judges import ANSWER_FEATURES

    rng = random.Random(seed)
    folder.mkdir(parents=True)
    rows = []
    for i in range(n):
        impossible = rng.random() < 0.4
        features = {f: rng.random() for f in ANSWER_FEATURES}
        features["support"] = rng.uniform(0.0, 0.5) if impossible else rng.uniform(0.3, 1.0)
        rows.append(
            {
                "dataset": name,
                "config": "adaptive",
                "id": str(i),
                "impossible": impossible,
                "answer_features": features,
            }
        )
    rows.append({"dataset": name, "config": "single", "id": "0", "impossible": False})
    (folder / "results.jsonl").write_text("\n".join(json.dumps(r) for r in rows))
    return folder


def test_the_decline_is_fitted_on_run_records_at_three_percent_false_declines(
    tmp_path: Path,
) -> None:
    from adaptive_rag.evaluation.answerable_fit import fit_answerable

    runs = [_runs(tmp_path / "a", "alpha", 120, 1), _runs(tmp_path / "b", "beta", 120, 2)]
    fitted = fit_answerable(runs, "local:test", excluded={"alpha:0"})
    report = fitted["report"]
    assert report["runs"] == 239  # adaptive records only, one held back
    judge = fitted["judges"]["answerable"]
    assert judge.fitted_for == {"chat_model": "local:test"} and "decline" in judge.thresholds
    pooled = next(r for r in report["answerable"]["held_out"] if r["set"] == "pooled")
    assert pooled["answerable_declined"] <= 0.03 + 1 / 100
    assert pooled["unanswerable_declined"] > 0.2 and pooled["auc"] > 0.8
    free = fitted["judges"]["answerable_chat_free"]
    assert "support" not in free.features and free.fitted_for == {}
    with pytest.raises(ValueError, match="answerable and unanswerable"):
        fit_answerable(runs[:1], "local:test", excluded={f"alpha:{i}" for i in range(200)})


def test_the_shipped_judge_is_scored_with_the_bridges_grade_documents_keeps(tmp_path: Path) -> None:
    from adaptive_rag.core.judges import RELEVANCE_FEATURES, Logistic
    from adaptive_rag.evaluation.relevance_fit import judge_on

    def source(doc: str, text: str, rank: int, gold: bool) -> dict[str, object]:
        return {"doc_id": doc, "text": text, "gold": gold, "rank": rank, "keyword_rank": rank}

    row = {
        "dataset": "bridges",
        "id": "1",
        "question": "Where was the inventor of the Halden kettle born?",
        "impossible": False,
        "kind": "bridge",
        "gold_doc_ids": ["a", "b"],
        "sources": [
            source("a", "The Halden kettle was invented by Ada Brook.", 1, True),
            source("x", "Tom Reed was born in Kessel.", 2, False),
            source("b", "Ada Brook was born in Marrowby.", 3, True),
        ],
    }
    (tmp_path / "bridges.chunks.jsonl").write_text(json.dumps(row) + "\n")
    # a judge of the fused rank alone: p = 0.95, 0.5, 0.27 down the list
    coef = [6.0 if f == "fused_reciprocal_rank" else 0.0 for f in RELEVANCE_FEATURES]
    judge = Logistic(
        name="rank",
        features=RELEVANCE_FEATURES,
        coef=tuple(coef),
        intercept=-3.0,
        mean=tuple([0.0] * len(RELEVANCE_FEATURES)),
        scale=tuple([1.0] * len(RELEVANCE_FEATURES)),
        thresholds={"keep": 0.55, "correct": 0.8, "incorrect": 0.1},
    )
    (line,) = judge_on([tmp_path / "bridges.chunks.jsonl"], 4, judge)
    assert line["gold_kept"] == 0.5 and line["every_gold_kept"] == "0 / 1"
    assert line["with_bridges_gold_kept"] == 1.0 and line["with_bridges_every_gold_kept"] == "1 / 1"
    assert line["other_rejected"] == 1.0 and line["with_bridges_other_rejected"] == 1.0


def test_fit_judges_without_relevance_fits_only_the_decline(tmp_path: Path) -> None:
    from adaptive_rag.cli.main import app
    from typer.testing import CliRunner

    runs = [_runs(tmp_path / "a", "alpha", 120, 1), _runs(tmp_path / "b", "beta", 120, 2)]
    out = tmp_path / "weights"
    common = ["eval", "fit-judges", "--sets", "", "--no-relevance", "--out", str(out)]
    alone = CliRunner().invoke(app, common)
    assert alone.exit_code == 2 and "--runs" in alone.output
    result = CliRunner().invoke(app, [*common, "--runs", str(runs[0]), "--runs", str(runs[1])])
    assert result.exit_code == 0, result.output
    assert "answerability: 240 runs" in result.output
    assert sorted(p.name for p in out.iterdir()) == [  # each judge, and what it measured
        "answerable.fit.json",
        "answerable.json",
        "answerable_chat_free.fit.json",
        "answerable_chat_free.json",
    ]
    assert "report" not in json.loads((out / "answerable.json").read_text())
