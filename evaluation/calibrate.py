"""Fit the confidence map on scored runs, and measure its calibration (ECE, reliability plot).

The map is a logistic model over raw features (core.judges.fitted.Logistic, no standardisation): the
package ships it in core/judges/weights/confidence.json; the rows it was fitted on, with its
held-out figures, are kept in the clone (benchmarks/fitting/confidence.json), not in the wheel.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from adaptive_rag.core.judges import Logistic

BINS = 10


def rows_of(
    records: list[dict[str, Any]],
) -> tuple[list[str], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Return feature names, the feature matrix and correctness of the adaptive runs."""
    adaptive = [r for r in records if r["config"] == "adaptive" and r.get("features")]
    names = sorted({name for r in adaptive for name in r["features"]})
    x = np.array([[float(r["features"].get(n, 0.0)) for n in names] for r in adaptive])
    y = np.array([int(r["acc"] >= 0.5) for r in adaptive])
    return names, x, y


def expected_calibration_error(probs: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> float:
    """ECE over ten equal-width bins: the mean gap between confidence and accuracy."""
    edges = np.linspace(0.0, 1.0, BINS + 1)
    which = np.clip(np.digitize(probs, edges[1:-1]), 0, BINS - 1)
    total = 0.0
    for b in range(BINS):
        mask = which == b
        if mask.any():
            total += mask.mean() * abs(probs[mask].mean() - y[mask].mean())
    return float(total)


SPLITS = 10
"""Fold assignments the held-out ECE is averaged over: one split of a hundred answers is not a
stable figure (docs/decisions.md)."""


def as_model(fitted: dict[str, Any]) -> Logistic:
    """Return the map a fit (or a map's JSON) describes: features, coefficients, intercept."""
    return Logistic.from_json({"name": "confidence", **fitted})


def split(fitted: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Split a fit into the map the package ships and the record of what it was fitted on."""
    record = {k: v for k, v in fitted.items() if k not in ("coef", "intercept")}
    return as_model(fitted).to_json(), record


def measure(
    records: list[dict[str, Any]], model: Logistic, seed: int = 0, resamples: int = 1000
) -> dict[str, Any]:
    """ECE of a fitted map on runs it was not fitted on, with a bootstrap interval over answers."""
    names, x, y = rows_of(records)
    if not len(y):
        raise ValueError("no adaptive answers with features in the runs")
    probs = np.array([model.probability(dict(zip(names, row, strict=True))) for row in x])
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(y), size=(resamples, len(y)))
    spread = [expected_calibration_error(probs[p], y[p]) for p in picks]
    low, high = np.percentile(spread, [2.5, 97.5])
    return {
        "n": int(len(y)),
        "accuracy": round(float(y.mean()), 3),
        "mean_confidence": round(float(probs.mean()), 3),
        "ece": round(expected_calibration_error(probs, y), 3),
        "interval": [round(float(low), 3), round(float(high), 3)],
    }


def fit(records: list[dict[str, Any]], seed: int = 0) -> dict[str, Any]:
    """Fit the logistic map; its ECE is measured on out-of-fold predictions (5 folds, 10 splits)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict

    names, x, y = rows_of(records)
    if len(set(y.tolist())) < 2:
        raise ValueError("calibration needs both right and wrong answers in the runs")
    model = LogisticRegression(C=1.0, max_iter=1000)
    folds = min(5, int(np.bincount(y).min()))
    splits = [
        cross_val_predict(
            model,
            x,
            y,
            cv=StratifiedKFold(folds, shuffle=True, random_state=seed + i),
            method="predict_proba",
        )[:, 1]
        for i in range(SPLITS)
    ]
    eces = [expected_calibration_error(held, y) for held in splits]
    held_out = splits[0]  # one split's predictions, for the reliability diagram
    model.fit(x, y)
    return {
        "features": names,
        "coef": [round(float(c), 4) for c in model.coef_[0]],
        "intercept": round(float(model.intercept_[0]), 4),
        "n": int(len(y)),
        "accuracy": round(float(y.mean()), 3),
        "ece_held_out": round(float(np.mean(eces)), 3),
        "ece_held_out_range": [round(min(eces), 3), round(max(eces), 3)],
        "rows": [[*map(float, row), int(label)] for row, label in zip(x, y, strict=True)],
        "held_out": [round(float(p), 4) for p in held_out],
    }


def reliability_diagram(fitted: dict[str, Any], path: Path) -> Path:
    """Plot out-of-fold confidence against accuracy per bin (PNG), from a fit or its record."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from sklearn.calibration import calibration_curve

    y = np.array([row[-1] for row in fitted["rows"]])
    probs = np.array(fitted["held_out"])
    right, predicted = calibration_curve(y, probs, n_bins=BINS, strategy="uniform")
    fig, ax = plt.subplots(figsize=(4.5, 4.5))
    ax.plot([0, 1], [0, 1], linestyle="--", color="grey", label="perfect")
    label = f"adaptive (ECE {fitted['ece_held_out']:.3f}, mean of {SPLITS} splits)"
    ax.plot(predicted, right, marker="o", label=label)
    ax.hist(probs, bins=BINS, range=(0, 1), weights=np.full(len(probs), 1 / len(probs)), alpha=0.2)
    ax.set_xlabel("confidence (out-of-fold)")
    ax.set_ylabel("share correct")
    ax.set_title(f"Reliability of confidence (n={fitted['n']})")
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
