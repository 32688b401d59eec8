"""Fit the answerability judge (the decline) on `eval run` records, and report both errors.

Each adaptive run that reached the check recorded what the judge reads (`answer_features`). The
label is whether the question is answerable from the corpus at all (SQuAD2's impossible and
MultiHop-RAG's null questions are not). The decline threshold is the highest that declines at
most FALSE_DECLINES of the answerable questions out of fold; the report gives the share of
unanswerable ones it declines there, per set, held out and with each set left out of the fit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from adaptive_rag.core.judges import (
    ANSWER_FEATURES,
    ANSWER_JUDGE,
    CHAT_FEATURES,
    CHAT_FREE_JUDGE,
    Logistic,
)
from adaptive_rag.evaluation.data import read_jsonl
from adaptive_rag.evaluation.judge_fit import (
    Matrix,
    auc,
    fit_logistic,
    left_out,
    out_of_fold,
)

FALSE_DECLINES = 0.03
"""Share of answerable questions the chosen threshold may decline, out of fold."""
STRENGTH = 0.2
"""The logistic model's inverse regularisation: a few hundred runs, eighteen features."""


def records(run_dirs: list[Path], excluded: set[str]) -> list[dict[str, Any]]:
    """Return the adaptive runs that recorded the judge's features, none held back."""
    rows = []
    for folder in run_dirs:
        for r in read_jsonl(folder / "results.jsonl"):
            if r["config"] != "adaptive" or not r.get("answer_features"):
                continue
            if f"{r['dataset']}:{r['id']}" in excluded:
                continue
            rows.append(r)
    return rows


def run_matrix(rows: list[dict[str, Any]]) -> tuple[Matrix, Matrix, Matrix, Matrix]:
    """Return the runs' features, labels (1: answerable), question groups and set names."""
    x = np.array([[float(r["answer_features"].get(f, 0.0)) for f in ANSWER_FEATURES] for r in rows])
    y = np.array([int(not r["impossible"]) for r in rows])
    groups = np.array([f"{r['dataset']}:{r['id']}" for r in rows])
    return x, y, groups, np.array([r["dataset"] for r in rows])


def decline_threshold(p: Matrix, y: Matrix, share: float = FALSE_DECLINES) -> float:
    """Return the highest threshold that declines at most `share` of the answerable rows."""
    answerable = np.sort(p[y == 1])
    if not len(answerable):
        return 0.0
    allowed = int(np.floor(share * len(answerable)))
    return float(answerable[allowed]) if allowed < len(answerable) else 1.0


def error_table(p: Matrix, y: Matrix, sets: Matrix, threshold: float) -> list[dict[str, Any]]:
    """Per set and pooled: answerable declined, unanswerable declined, AUC at a threshold."""
    rows = []
    for name in [*sorted(set(sets.tolist())), "pooled"]:
        mask = np.ones(len(y), bool) if name == "pooled" else sets == name
        declined = p[mask] < threshold
        answerable, unanswerable = y[mask] == 1, y[mask] == 0
        rows.append(
            {
                "set": name,
                "answerable": int(answerable.sum()),
                "unanswerable": int(unanswerable.sum()),
                "answerable_declined": round(float(declined[answerable].mean()), 3)
                if answerable.any()
                else None,
                "unanswerable_declined": round(float(declined[unanswerable].mean()), 3)
                if unanswerable.any()
                else None,
                "auc": None if (a := auc(y[mask], p[mask])) is None else round(a, 3),
            }
        )
    return rows


def fit_answerable(run_dirs: list[Path], chat_model: str, excluded: set[str]) -> dict[str, Any]:
    """Fit the full and the chat-free judge on run records; return them with their figures."""
    rows = records(run_dirs, excluded)
    if len({bool(r["impossible"]) for r in rows}) < 2:
        raise ValueError(
            "the runs need answerable and unanswerable questions (squad2, multihop_rag)"
        )
    x, y, groups, sets = run_matrix(rows)
    report: dict[str, Any] = {"runs": len(rows), "fitted_on": [str(d) for d in run_dirs]}
    judges: dict[str, Logistic] = {}
    for name, features in (
        (ANSWER_JUDGE, ANSWER_FEATURES),
        (CHAT_FREE_JUDGE, tuple(f for f in ANSWER_FEATURES if f not in CHAT_FEATURES)),
    ):
        xs = x[:, [ANSWER_FEATURES.index(f) for f in features]]
        held = out_of_fold(features, xs, y, groups, c=STRENGTH)
        threshold = decline_threshold(held, y)
        fitted = fit_logistic(name, features, xs, y, c=STRENGTH)
        fitted_for = {"chat_model": chat_model} if name == ANSWER_JUDGE else {}
        judges[name] = Logistic(
            **{**fitted.__dict__, "thresholds": {"decline": threshold}, "fitted_for": fitted_for}
        )
        away = left_out(features, xs, y, sets, c=STRENGTH)
        report[name] = {
            "decline_below": round(threshold, 4),
            "held_out": error_table(held, y, sets, threshold),
            "left_out": [
                row
                for set_name, p in away.items()
                for row in error_table(p, y[sets == set_name], sets[sets == set_name], threshold)
                if row["set"] != "pooled"
            ],
        }
    return {"judges": judges, "report": report}
