"""The confidence map: fitted on scored runs, measured out of fold, read back by the graph."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
from adaptive_rag.core.calibration import calibrated, load_calibration
from adaptive_rag.evaluation.calibrate import expected_calibration_error, fit, reliability_diagram


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
    high = calibrated({"grounded": 1.0}, fitted)
    low = calibrated({"grounded": 0.0}, fitted)
    assert 0.75 < high < 0.95 and 0.15 < low < 0.35
    assert fitted["ece_held_out"] < 0.1
    low, high = fitted["ece_held_out_range"]  # the mean of several fold splits, and their spread
    assert low <= fitted["ece_held_out"] <= high
    path = tmp_path / "confidence.json"
    path.write_text(json.dumps(fitted))
    assert load_calibration(path) == fitted
    assert reliability_diagram(fitted, tmp_path / "r.png").stat().st_size > 1000


def test_ece_is_zero_when_confidence_matches_accuracy_and_large_when_not() -> None:
    y = np.array([1, 0] * 50)
    assert expected_calibration_error(np.full(100, 0.5), y) == 0.0
    assert expected_calibration_error(np.full(100, 0.95), y) > 0.4
