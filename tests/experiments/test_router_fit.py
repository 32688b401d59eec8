"""experiments/router_fit.py: the learned router judged on held-out folds beside rules+model."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from fake_sources import HashEmbeddings

TEMPLATES = {  # words that tell the labels apart, as a question's topic would
    "A": "what colour is the sky over meadow {i}",
    "B": "how long is the warranty of kettle model {i}",
    "C": "which harbour lies beyond the ridge near valley {i}",
}
OUTCOME = {"A": (True, True, True), "B": (False, True, True), "C": (False, False, True)}


@pytest.fixture
def router_fit(
    experiment: Callable[[str], ModuleType], monkeypatch: pytest.MonkeyPatch
) -> ModuleType:
    module = experiment("router_fit")
    monkeypatch.setattr(module, "load_embeddings", lambda spec: HashEmbeddings())
    return module


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


def test_a_learnable_router_beats_a_router_that_always_retrieves_once(
    router_fit: ModuleType,
) -> None:
    fitted = router_fit.fit_router(records(ALWAYS_SIMPLE))
    held = fitted["held_out"]
    assert fitted["n"] == 24 and fitted["labels"] == {"A": 8, "B": 8, "C": 8}
    assert held["rules+model"]["accuracy"] == pytest.approx(1 / 3, abs=0.001)
    assert held["rules+learned"]["accuracy"] > 0.9
    assert held["oracle"]["answer_acc"] == 1.0
    assert fitted["beats_rules_model"] is True
    assert len(fitted["coef"]) == 3 and len(fitted["coef"][0]) == HashEmbeddings.dim + 8


def test_a_router_already_right_is_not_beaten(router_fit: ModuleType) -> None:
    fitted = router_fit.fit_router(records(PERFECT))
    assert fitted["held_out"]["rules+model"]["accuracy"] == 1.0
    assert fitted["beats_rules_model"] is False


def test_a_label_with_one_question_is_left_out_and_said(router_fit: ModuleType) -> None:
    rows = [r for r in records(ALWAYS_SIMPLE) if not r["id"].startswith("C") or r["id"] == "C0"]
    fitted = router_fit.fit_router(rows)
    assert fitted["labels"] == {"A": 8, "B": 8} and fitted["dropped"] == {"C": 1}
    assert fitted["classes"] == ["A", "B"] and len(fitted["coef"]) == 1


def test_too_few_labels_is_a_clear_error(router_fit: ModuleType) -> None:
    with pytest.raises(ValueError, match="at least two labels"):
        router_fit.fit_router(records(ALWAYS_SIMPLE, per_label=1))


@pytest.mark.parametrize(("routed", "wins"), [(ALWAYS_SIMPLE, True), (PERFECT, False)])
def test_the_fit_is_kept_beside_its_runs_and_says_whether_it_wins(
    router_fit: ModuleType,
    write_runs: Callable[[str, list[dict[str, Any]]], Path],
    capsys: pytest.CaptureFixture[str],
    routed: dict[str, str],
    wins: bool,
) -> None:
    out = write_runs("run", records(routed))
    assert router_fit.main([str(out)]) == 0
    fitted = json.loads((out / "router.json").read_text())
    assert fitted["beats_rules_model"] is wins and fitted["classes"] == ["A", "B", "C"]
    assert fitted["fitted_on"] == [str(out)]
    assert ("does not beat" in capsys.readouterr().out) is not wins


def test_a_folder_without_results_is_a_usage_error(
    run_script: Callable[..., str], tmp_path: Path
) -> None:
    error = run_script("router_fit.py", tmp_path / "no-run", code=2)
    assert "no results.jsonl" in error and "eval run" in error


def test_too_few_labels_from_the_script_is_a_usage_error(
    router_fit: ModuleType, write_runs: Callable[[str, list[dict[str, Any]]], Path]
) -> None:
    out = write_runs("run", records(ALWAYS_SIMPLE, per_label=1))
    with pytest.raises(SystemExit) as exited:
        router_fit.main([str(out)])
    assert exited.value.code == 2
