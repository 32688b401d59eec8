"""Calibrated confidence: a logistic map from how an answer was reached to P(correct).

The map and the rows it was fitted on live together in confidence.json beside this file;
`adaptive-rag eval calibrate` refits it from evaluation runs.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from adaptive_rag.core.fitted import Logistic

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
    """Return P(correct) for an answer described by `features` (a missing feature counts 0).

    The map is a logistic model over raw features, evaluated as the judges are (core.fitted).
    """
    names = tuple(fitted["features"])
    model = Logistic(
        name="confidence",
        features=names,
        coef=tuple(float(c) for c in fitted["coef"]),
        intercept=float(fitted["intercept"]),
        mean=(0.0,) * len(names),
        scale=(1.0,) * len(names),
    )
    return model.probability(features)
