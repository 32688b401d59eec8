"""The confidence map: fitted on scored runs, measured out of fold, read back by the graph."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from adaptive_rag.cli.main import app
from adaptive_rag.core import judges
from adaptive_rag.core.judges import Logistic
from adaptive_rag.evaluation.calibrate import (
    as_model,
    expected_calibration_error,
    fit,
    measure,
    reliability_diagram,
    split,
)
from typer.testing import CliRunner


def _records(n: int = 200) -> list[dict[str, object]]:
    rng = random.Random(0)
    records = []
    for i in range(n):
        grounded = rng.random() < 0.5
        right = rng.random() < (0.85 if grounded else 0.25)  # the feature carries real signal
        records.append(
            {
                "config": "adaptive",
                "id": str(i),
                "acc": float(right),
                "features": {"grounded": float(grounded)},
            }
        )
    records.append({"config": "single", "id": "x", "acc": 1.0, "features": {"grounded": 0.0}})
    return records


def test_fit_learns_the_signal_and_is_calibrated_out_of_fold(tmp_path: Path) -> None:
    fitted = fit(_records())
    assert fitted["n"] == 200 and fitted["features"] == ["grounded"]  # single-shot rows left out
    high = as_model(fitted).probability({"grounded": 1.0})
    low = as_model(fitted).probability({"grounded": 0.0})
    assert 0.75 < high < 0.95 and 0.15 < low < 0.35
    assert fitted["ece_held_out"] < 0.1
    low, high = fitted["ece_held_out_range"]  # the mean of several fold splits, and their spread
    assert low <= fitted["ece_held_out"] <= high
    model, record = split(fitted)  # the map the package ships; what it was fitted on
    path = tmp_path / "confidence.json"
    path.write_text(json.dumps(model))
    assert Logistic.from_json(json.loads(path.read_text())) == as_model(fitted)
    assert record["rows"] == fitted["rows"] and "coef" not in record
    assert reliability_diagram(record, tmp_path / "r.png").stat().st_size > 1000


def test_ece_is_zero_when_confidence_matches_accuracy_and_large_when_not() -> None:
    y = np.array([1, 0] * 50)
    assert expected_calibration_error(np.full(100, 0.5), y) == 0.0
    assert expected_calibration_error(np.full(100, 0.95), y) > 0.4


def test_a_map_is_measured_on_runs_it_was_not_fitted_on() -> None:
    fitted = fit(_records())
    fresh = [{**r, "id": f"new-{r['id']}"} for r in _records()]
    got = measure(fresh, as_model(fitted))
    assert got["n"] == 200 and got["ece"] < 0.1
    low, high = got["interval"]
    assert low <= got["ece"] <= high
    # a map that rates every answer 0.95 is far off on the same answers
    overconfident = {"features": ["grounded"], "coef": [0.0], "intercept": 2.944}
    assert measure(fresh, as_model(overconfident))["ece"] > 0.3


def test_eval_calibrate_check_reports_the_installed_map_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    installed = tmp_path / "confidence.json"
    installed.write_text(json.dumps(split(fit(_records()))[0]))
    monkeypatch.setattr(
        judges,
        "load_judge",
        lambda name: Logistic.from_json(json.loads(installed.read_text())),
    )
    run = tmp_path / "run"
    run.mkdir()
    lines = "\n".join(json.dumps(r) for r in _records())
    (run / "results.jsonl").write_text(lines + "\n")
    before = installed.read_text()
    result = CliRunner().invoke(app, ["eval", "calibrate", str(run), "--check"])
    assert result.exit_code == 0, result.output
    assert f"{run}: 200 answers" in result.output and "ECE 0.0" in result.output
    assert installed.read_text() == before and not (run / "confidence.json").exists()
    both = CliRunner().invoke(app, ["eval", "calibrate", str(run), "--check", "--write"])
    assert both.exit_code == 2 and "cannot --write" in both.output


def test_eval_calibrate_check_measures_a_map_a_fit_wrote(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "results.jsonl").write_text("\n".join(json.dumps(r) for r in _records()) + "\n")
    good, off = tmp_path / "good.json", tmp_path / "off.json"
    good.write_text(json.dumps(fit(_records())))
    off.write_text(json.dumps({"features": ["grounded"], "coef": [0.0], "intercept": 2.944}))
    runner = CliRunner()
    fitted = runner.invoke(app, ["eval", "calibrate", str(run), "--check", "--map", str(good)])
    assert fitted.exit_code == 0, fitted.output
    assert "ECE 0.0" in fitted.output
    overconfident = runner.invoke(
        app, ["eval", "calibrate", str(run), "--check", "--map", str(off)]
    )
    assert overconfident.exit_code == 0 and "mean confidence 0.95" in overconfident.output
    assert "ECE 0.0" not in overconfident.output
    (tmp_path / "bad.json").write_text(json.dumps({"ece": 0.1}))
    bad = runner.invoke(
        app, ["eval", "calibrate", str(run), "--check", "--map", str(tmp_path / "bad.json")]
    )
    assert bad.exit_code == 2 and "no confidence map at" in bad.output
    (tmp_path / "list.json").write_text("[1, 2]")
    listed = runner.invoke(
        app, ["eval", "calibrate", str(run), "--check", "--map", str(tmp_path / "list.json")]
    )
    assert listed.exit_code == 2 and "no confidence map at" in listed.output
    alone = runner.invoke(app, ["eval", "calibrate", str(run), "--map", str(good)])
    assert alone.exit_code == 2 and "use it with --check" in alone.output
    assert not (run / "confidence.json").exists()


def test_a_folder_without_results_is_named_not_a_traceback(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["eval", "calibrate", str(tmp_path / "no-run")])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert "no results.jsonl in" in result.output and "eval run" in result.output


@pytest.mark.parametrize("clone", [True, False])
def test_eval_calibrate_write_installs_the_map_and_keeps_its_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clone: bool
) -> None:
    from adaptive_rag.evaluation import data

    weights, records = tmp_path / "weights", tmp_path / "fitting"
    weights.mkdir()
    if clone:  # a clone keeps the records (benchmarks/fitting/); an installed package has none
        records.mkdir()
    monkeypatch.setattr(judges, "WEIGHTS_DIR", weights)
    monkeypatch.setattr(data, "FITTED_DIR", records)
    run = tmp_path / "run"
    run.mkdir()
    (run / "results.jsonl").write_text("\n".join(json.dumps(r) for r in _records()) + "\n")
    result = CliRunner().invoke(app, ["eval", "calibrate", str(run), "--write"])
    assert result.exit_code == 0, result.output
    assert "coef" in json.loads((weights / "confidence.json").read_text())
    assert json.loads((run / "confidence.fit.json").read_text())["n"] == 200
    assert (records / "confidence.json").is_file() is clone
