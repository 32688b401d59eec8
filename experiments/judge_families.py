"""Which kind of model the answerability judge should be: AUC held out, on a set left out, on tests.

    python experiments/judge_families.py --fit eval-out/seed7/squad2 eval-out/seed7/multihop_rag \
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

from adaptive_rag.core.judges import ANSWER_FEATURES
from adaptive_rag.evaluation.answerable_fit import STRENGTH, records, run_matrix
from adaptive_rag.evaluation.judge_fit import (
    Fit,
    Matrix,
    auc,
    held_out_by,
    left_out_by,
    logistic_fit,
)
from run_folders import run_folder


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
    "logistic (shipped)": logistic_fit(ANSWER_FEATURES, c=STRENGTH),
    "boosted trees, depth 1": boosted(1),
    "boosted trees, depth 2": boosted(2),
}


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
    parser.add_argument(
        "--fit", type=run_folder, nargs="+", required=True, help="run folders to fit on"
    )
    parser.add_argument(
        "--test", type=run_folder, nargs="+", required=True, help="run folders to test"
    )
    args = parser.parse_args(argv)
    tests = records(args.test, set())
    fits = records(args.fit, {f"{r['dataset']}:{r['id']}" for r in tests})
    x, y, groups, sets = run_matrix(fits)
    if len(set(y.tolist())) < 2:
        parser.error(
            "the --fit runs need answerable and unanswerable questions (squad2, multihop_rag)"
        )
    tx, ty, _, tsets = run_matrix(tests)
    out = sys.stdout.write
    out(f"fit on {len(fits)} runs ({int(y.sum())} answerable); tested on {len(tests)}\n\n")
    out("| family | held-out folds | each set left out of the fit | test runs |\n")
    out("|---|---|---|---|\n")
    for name, fit in FAMILIES.items():
        away = [
            f"{left} {value:.3f}"
            for left, p in left_out_by(fit, x, y, sets).items()
            if (value := auc(y[sets == left], p)) is not None
        ]
        tested = fit(x, y)(tx)
        out(
            f"| {name} | {by_set(y, held_out_by(fit, x, y, groups), sets)} | {'; '.join(away)} "
            f"| {by_set(ty, tested, tsets)} |\n"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
