"""Which kind of model the answerability judge should be: AUC held out, on a set left out, on tests.

    python benchmarks/judge_families.py --fit eval-out/seed7/squad2 eval-out/seed7/multihop_rag \
        eval-out/seed7/cmrc2018 --test eval-out/current/squad2_80 eval-out/current/multihop_rag_80

Each family is fitted on the adaptive runs of the `--fit` folders (the questions of the `--test`
folders left out) from the features the judge reads (`answer_features`), and its AUC (answerable
above unanswerable) is reported three ways: on held-out folds grouped by question, on each set
predicted by a model fitted on the other sets only (how far it carries to a collection it has
never seen), and on the `--test` runs, fitted on all the fit runs. The shipped judge is the
logistic model; the boosted trees are the candidate a judge per kind of question would be.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from adaptive_rag.core.answerability import FEATURES
from adaptive_rag.evaluation.answerable_fit import STRENGTH, records
from adaptive_rag.evaluation.judge_fit import Matrix, auc, fit_logistic, predict

Fit = Callable[[Matrix, Matrix], Callable[[Matrix], Matrix]]


def logistic(x: Matrix, y: Matrix) -> Callable[[Matrix], Matrix]:
    """Fit the shipped form: a standardised logistic model at the judge's regularisation."""
    model = fit_logistic("candidate", FEATURES, x, y, c=STRENGTH)
    return lambda rows: predict(model, rows)


def boosted(depth: int) -> Fit:
    """Return a fit of gradient-boosted trees of a given depth (interactions of features)."""
    from sklearn.ensemble import GradientBoostingClassifier

    def fit(x: Matrix, y: Matrix) -> Callable[[Matrix], Matrix]:
        model = GradientBoostingClassifier(
            max_depth=depth, n_estimators=100, learning_rate=0.05, subsample=0.8, random_state=0
        ).fit(x, y)
        return lambda rows: model.predict_proba(rows)[:, 1]

    return fit


FAMILIES: dict[str, Fit] = {
    "logistic (shipped)": logistic,
    "boosted trees, depth 1": boosted(1),
    "boosted trees, depth 2": boosted(2),
}


def matrix(rows: list[dict[str, Any]]) -> tuple[Matrix, Matrix, Matrix, Matrix]:
    """Return features, labels (1 answerable), question groups and set names of the runs."""
    x = np.array([[float(r["answer_features"].get(f, 0.0)) for f in FEATURES] for r in rows])
    y = np.array([int(not r["impossible"]) for r in rows])
    groups = np.array([f"{r['dataset']}:{r['id']}" for r in rows])
    return x, y, groups, np.array([r["dataset"] for r in rows])


def held_out(fit: Fit, x: Matrix, y: Matrix, groups: Matrix) -> Matrix:
    """Return each run's probability from a model fitted without its question's fold."""
    from sklearn.model_selection import GroupKFold

    p = np.zeros(len(y))
    for train, test in GroupKFold(n_splits=5, shuffle=True, random_state=0).split(x, y, groups):
        p[test] = fit(x[train], y[train])(x[test])
    return p


def by_set(y: Matrix, p: Matrix, sets: Matrix) -> str:
    """Return 'pooled A; set A; …' over the sets with both kinds of question."""
    parts = [f"pooled {auc(y, p) or float('nan'):.3f}"]
    for name in sorted(set(sets.tolist())):
        value = auc(y[sets == name], p[sets == name])
        if value is not None:
            parts.append(f"{name} {value:.3f}")
    return "; ".join(parts)


def main(argv: list[str] | None = None) -> int:
    """Print each family's AUC held out, on each set left out, and on the test runs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", type=Path, nargs="+", required=True, help="run folders to fit on")
    parser.add_argument("--test", type=Path, nargs="+", required=True, help="run folders to test")
    args = parser.parse_args(argv)
    tests = records(args.test, set())
    fits = records(args.fit, {f"{r['dataset']}:{r['id']}" for r in tests})
    x, y, groups, sets = matrix(fits)
    tx, ty, _, tsets = matrix(tests)
    out = sys.stdout.write
    out(f"fit on {len(fits)} runs ({int(y.sum())} answerable); tested on {len(tests)}\n\n")
    out("| family | held-out folds | each set left out of the fit | test runs |\n")
    out("|---|---|---|---|\n")
    for name, fit in FAMILIES.items():
        away = []
        for left in sorted(set(sets.tolist())):
            train, test = sets != left, sets == left
            if len(set(y[test].tolist())) == 2:
                p = fit(x[train], y[train])(x[test])
                away.append(f"{left} {auc(y[test], p) or float('nan'):.3f}")
        tested = fit(x, y)(tx)
        out(
            f"| {name} | {by_set(y, held_out(fit, x, y, groups), sets)} | {'; '.join(away)} "
            f"| {by_set(ty, tested, tsets)} |\n"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
