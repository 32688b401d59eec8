"""Calibrated confidence: a logistic map from how an answer was reached to P(correct).

The map and the rows it was fitted on live together in confidence.json beside this file;
`adaptive-rag eval calibrate` refits it from evaluation runs.
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path
from typing import Any

CALIBRATION_FILE = Path(__file__).with_name("confidence.json")


@cache
def load_calibration(path: Path = CALIBRATION_FILE) -> dict[str, Any] | None:
    """Return the fitted map (features, coefficients, intercept), or None if none is shipped."""
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data


def calibrated(features: dict[str, float], fitted: dict[str, Any]) -> float:
    """Return P(correct) for an answer described by `features` (a missing feature counts 0)."""
    z = float(fitted["intercept"]) + sum(
        float(c) * float(features.get(name, 0.0))
        for name, c in zip(fitted["features"], fitted["coef"], strict=True)
    )
    return 1.0 / (1.0 + math.exp(-z))
