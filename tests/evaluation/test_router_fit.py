"""Fitting the learned router (an experiment): judged on held-out folds beside rules+model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from adaptive_rag.cli.main import app
from adaptive_rag.evaluation import router_fit
from fake_sources import HashEmbeddings
from typer.testing import CliRunner

TEMPLATES = {  # words that tell the labels apart, as a question's topic would
    "A": "what colour is the sky over meadow {i}",
    "B": "how long is the warranty of kettle model {i}",
    "C": "which harbour lies beyond the ridge near valley {i}",
}
OUTCOME = {"A": (True, True, True), "B": (False, True, True), "C": (False, False, True)}


@pytest.fixture(autouse=True)
def _hashed_embeddings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(router_fit, "load_embeddings", lambda spec: HashEmbeddings())


def records(routed: dict[str, str], per_label: int = 8) -> list[dict[str, Any]]:
    rows = []
    for label, template in TEMPLATES.items():
        for i in range(per_label):
            qid, question = f"{label}{i}", template.format(i=i)
            acc = dict(zip(("direct", "single", "multi"), OUTCOME[label], strict=True))
            for config, spent in (("direct", 10), ("single", 100), ("multi", 300)):
                rows.append(run(qid, question, config, acc[config], config, spent))
            rows.append(run(qid, question, "adaptive", acc["single"], routed[label], 150))
    return rows


def run(qid: str, question: str, config: str, acc: bool, route: str, spent: int) -> dict[str, Any]:
    return {
        "dataset": "d",
        "id": qid,
        "config": config,
        "question": question,
        "kind": "k",
        "acc": float(acc),
        "route": route,
        "tokens_in": spent,
        "tokens_out": 0,
    }


ALWAYS_SIMPLE = {"A": "simple", "B": "simple", "C": "simple"}
PERFECT = {"A": "general", "B": "simple", "C": "complex"}


def test_a_learnable_router_beats_a_router_that_always_retrieves_once() -> None:
    fitted = router_fit.fit_router(records(ALWAYS_SIMPLE))
    held = fitted["held_out"]
    assert fitted["n"] == 24 and fitted["labels"] == {"A": 8, "B": 8, "C": 8}
    assert held["rules+model"]["accuracy"] == pytest.approx(1 / 3, abs=0.001)
    assert held["rules+learned"]["accuracy"] > 0.9
    assert held["oracle"]["answer_acc"] == 1.0
    assert fitted["beats_rules_model"] is True
    assert len(fitted["coef"]) == 3 and len(fitted["coef"][0]) == HashEmbeddings.dim + 8


def test_a_router_already_right_is_not_beaten() -> None:
    fitted = router_fit.fit_router(records(PERFECT))
    assert fitted["held_out"]["rules+model"]["accuracy"] == 1.0
    assert fitted["beats_rules_model"] is False


def test_a_label_with_one_question_is_left_out_and_said() -> None:
    rows = [r for r in records(ALWAYS_SIMPLE) if not r["id"].startswith("C") or r["id"] == "C0"]
    fitted = router_fit.fit_router(rows)
    assert fitted["labels"] == {"A": 8, "B": 8} and fitted["dropped"] == {"C": 1}
    assert fitted["classes"] == ["A", "B"] and len(fitted["coef"]) == 1


def test_too_few_labels_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="at least two labels"):
        router_fit.fit_router(records(ALWAYS_SIMPLE, per_label=1))


@pytest.mark.parametrize(("routed", "wins"), [(ALWAYS_SIMPLE, True), (PERFECT, False)])
def test_the_fit_is_kept_beside_its_runs_and_says_whether_it_wins(
    tmp_path: Path, routed: dict[str, str], wins: bool
) -> None:
    out = tmp_path / "run"
    out.mkdir()
    (out / "results.jsonl").write_text("\n".join(json.dumps(r) for r in records(routed)))
    result = CliRunner().invoke(app, ["eval", "router", str(out)])
    assert result.exit_code == 0
    fitted = json.loads((out / "router.json").read_text())
    assert fitted["beats_rules_model"] is wins and fitted["classes"] == ["A", "B", "C"]
    assert ("does not beat" in result.output) is not wins


@pytest.mark.parametrize("command", ["router", "calibrate"])
def test_a_folder_without_results_is_named_not_a_traceback(tmp_path: Path, command: str) -> None:
    result = CliRunner().invoke(app, ["eval", command, str(tmp_path / "no-run")])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert "no results.jsonl in" in result.output and "eval run" in result.output
