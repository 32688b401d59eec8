"""Fit the judges as logistic models, judged on held-out folds and on sets left out of the fit.

Held-out folds group by question, so no question's sources sit on both sides. Each set is also
predicted by a model fitted on the other sets only, which says how far the judge carries to a
collection it has never seen. Thresholds are read from the out-of-fold probabilities.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from adaptive_rag.core.judges import Logistic

Matrix = np.ndarray[Any, Any]
FOLDS = 5


def fit_logistic(
    name: str,
    features: Sequence[str],
    x: Matrix,
    y: Matrix,
    c: float = 1.0,
    balanced: bool = False,
) -> Logistic:
    """Fit a standardised logistic model and return it in its shipped form.

    `balanced` weighs both labels alike, so the fit data's share of each (a choice of how its
    pools were drawn) does not move the model's probabilities.
    """
    from sklearn.linear_model import LogisticRegression

    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    weights = "balanced" if balanced else None
    model = LogisticRegression(C=c, max_iter=5000, class_weight=weights).fit((x - mean) / scale, y)
    return Logistic(
        name=name,
        features=tuple(features),
        coef=tuple(float(v) for v in model.coef_[0]),
        intercept=float(model.intercept_[0]),
        mean=tuple(float(v) for v in mean),
        scale=tuple(float(v) for v in scale),
    )


def predict(model: Logistic, x: Matrix) -> Matrix:
    """Return the model's probabilities for the rows of x (columns in the model's order)."""
    mean, scale = np.array(model.mean), np.array(model.scale)
    z = model.intercept + ((x - mean) / scale) @ np.array(model.coef)
    probabilities: Matrix = 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))
    return probabilities


Fit = Callable[[Matrix, Matrix], Callable[[Matrix], Matrix]]
"""Fit a model on rows and labels; return its probabilities for other rows."""


def logistic_fit(features: Sequence[str], c: float = 1.0, balanced: bool = False) -> Fit:
    """Return a Fit of the shipped logistic model over `features`."""

    def fit(x: Matrix, y: Matrix) -> Callable[[Matrix], Matrix]:
        model = fit_logistic("fold", features, x, y, c, balanced)
        return lambda rows: predict(model, rows)

    return fit


def held_out_by(fit: Fit, x: Matrix, y: Matrix, groups: Matrix, seed: int = 0) -> Matrix:
    """Return each row's probability from a model (`fit`) fitted without its group's fold."""
    from sklearn.model_selection import GroupKFold

    held = np.zeros(len(y))
    folds = GroupKFold(
        n_splits=min(FOLDS, len(set(groups.tolist()))), shuffle=True, random_state=seed
    )
    for train, test in folds.split(x, y, groups):
        if len(set(y[train].tolist())) < 2:
            held[test] = float(y[train].mean())
            continue
        held[test] = fit(x[train], y[train])(x[test])
    return held


def left_out_by(fit: Fit, x: Matrix, y: Matrix, sets: Matrix) -> dict[str, Matrix]:
    """Return, per set, its rows' probabilities from a model fitted on the other sets only."""
    found = {}
    for name in sorted(set(sets.tolist())):
        train, test = sets != name, sets == name
        if len(set(y[train].tolist())) < 2:
            continue
        found[name] = fit(x[train], y[train])(x[test])
    return found


def out_of_fold(
    features: Sequence[str], x: Matrix, y: Matrix, groups: Matrix, seed: int = 0, c: float = 1.0
) -> Matrix:
    """Return each row's probability from a logistic model fitted without its group's fold."""
    return held_out_by(logistic_fit(features, c), x, y, groups, seed)


def left_out(
    features: Sequence[str], x: Matrix, y: Matrix, sets: Matrix, c: float = 1.0
) -> dict[str, Matrix]:
    """Return, per set, its rows' probabilities from a logistic model fitted on the others."""
    return left_out_by(logistic_fit(features, c), x, y, sets)


def auc(y: Matrix, p: Matrix) -> float | None:
    """Return the area under the ROC curve, or None when only one class is present."""
    from sklearn.metrics import roc_auc_score

    return float(roc_auc_score(y, p)) if len(set(y.tolist())) == 2 else None


def lowest_keeping(p: Matrix, y: Matrix, share: float) -> float:
    """Return the highest threshold that keeps at least `share` of the positive rows."""
    positives = np.sort(p[y == 1])
    if not len(positives):
        return 0.0
    index = int(np.floor((1.0 - share) * len(positives)))
    return float(positives[min(index, len(positives) - 1)])


def keep_table(
    p: Matrix, y: Matrix, threshold: float, by: Matrix, kept: Callable[[Matrix], Matrix]
) -> list[dict[str, Any]]:
    """Per group of `by`: gold kept, non-gold rejected and AUC at a keep threshold."""
    rows = []
    for name in sorted(set(by.tolist())):
        mask = by == name
        keep = kept(p[mask] >= threshold)
        gold, other = y[mask] == 1, y[mask] == 0
        rows.append(
            {
                "set": name,
                "sources": int(mask.sum()),
                "gold": int(gold.sum()),
                "gold_kept": round(float(keep[gold].mean()), 3) if gold.any() else None,
                "other_rejected": round(float((~keep[other]).mean()), 3) if other.any() else None,
                "auc": None if (a := auc(y[mask], p[mask])) is None else round(a, 3),
            }
        )
    return rows
