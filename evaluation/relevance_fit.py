"""Fit the relevance judge (grade_documents) on labelled retrievals, and report how it does.

Rows come from `judge_data.collect`: each answerable question's retrieved sources, gold or not.
The report gives, per set, the share of gold sources kept and of other sources rejected at the
shipped threshold, out of fold and with the set left out of the fit, and the judge's time per
question. (The prompted grader it replaced is measured on the same sources by
experiments/model_grader.py, in the clone.)
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np
from adaptive_rag.core.judges import (
    KEYWORD_JUDGE,
    RELEVANCE_FEATURES,
    RELEVANCE_JUDGE,
    VECTOR_FEATURES,
    Logistic,
    keep_sources,
    source_features,
)
from adaptive_rag.core.text import terms
from adaptive_rag.evaluation.data import read_jsonl
from adaptive_rag.evaluation.judge_fit import (
    Matrix,
    auc,
    fit_logistic,
    keep_table,
    left_out,
    lowest_keeping,
    out_of_fold,
    predict,
)

GOLD_KEPT = 0.95
"""Share of gold sources the keep threshold holds on out-of-fold predictions."""
FALSE_INCORRECT = 0.02
"""Share of questions with a gold source among theirs that may be called 'incorrect'."""
CORRECT_PRECISION = 0.9
"""Share of 'correct' verdicts whose most probable source must be gold."""


def labelled(paths: list[Path], depth: int, excluded: set[str]) -> list[dict[str, Any]]:
    """Return the answerable questions with gold documents, each with its top `depth` sources.

    `excluded` names questions ("set:id") held back for the evaluation, never fitted on.
    """
    rows = []
    for path in paths:
        for row in read_jsonl(path):
            if row["impossible"] or not row["gold_doc_ids"] or not row["sources"]:
                continue
            if f"{row['dataset']}:{row['id']}" in excluded:
                continue
            rows.append({**row, "sources": row["sources"][:depth]})
    return rows


def matrix(rows: list[dict[str, Any]]) -> tuple[Matrix, Matrix, Matrix, Matrix, Matrix]:
    """Return features, labels, question ids, set names and question indices per source."""
    x, y, groups, sets, index = [], [], [], [], []
    for i, row in enumerate(rows):
        sources = [(s["text"], s) for s in row["sources"]]
        described = source_features(row["question"], sources)
        for values, source in zip(described, row["sources"], strict=True):
            x.append([values[name] for name in RELEVANCE_FEATURES])
            y.append(int(source["gold"]))
            groups.append(f"{row['dataset']}:{row['id']}")
            sets.append(row["dataset"])
            index.append(i)
    return np.array(x), np.array(y), np.array(groups), np.array(sets), np.array(index)


def question_thresholds(p: Matrix, y: Matrix, index: Matrix) -> dict[str, float]:
    """Choose the cut-offs on the best source's probability per question.

    `incorrect`, CRAG's verdict: below it a search is incorrect (few answerable searches fall
    under it: the FALSE_INCORRECT quantile); from it, correct. `correct`: from it a source is
    trusted (CORRECT_PRECISION of the searches so judged have a gold source on top), never below
    `incorrect`; the bridge rule reads it. Between the two lay CRAG's `ambiguous` band, measured
    and read as correct (docs/decisions.md).
    """
    best, best_is_gold, has_gold = [], [], []
    for i in sorted(set(index.tolist())):
        mask = index == i
        top = int(np.argmax(p[mask]))
        best.append(float(p[mask][top]))
        best_is_gold.append(bool(y[mask][top]))
        has_gold.append(bool(y[mask].any()))
    best_a, gold_a, has_a = np.array(best), np.array(best_is_gold), np.array(has_gold)
    incorrect = float(np.quantile(best_a[has_a], FALSE_INCORRECT)) if has_a.any() else 0.0
    correct = 1.0
    for t in np.unique(best_a):
        chosen = best_a >= t
        if gold_a[chosen].mean() >= CORRECT_PRECISION:
            correct = float(t)
            break
    return {"incorrect": incorrect, "correct": max(correct, incorrect)}


def verdict_shares(p: Matrix, index: Matrix, thresholds: dict[str, float]) -> dict[str, float]:
    """Return the share of questions each CRAG verdict would be given."""
    best = np.array([p[index == i].max() for i in sorted(set(index.tolist()))])
    correct = best >= thresholds["incorrect"]
    return {
        "correct": round(float(correct.mean()), 3),
        "incorrect": round(float((~correct).mean()), 3),
    }


def fit_relevance(
    paths: list[Path],
    depth: int,
    embedding_model: str,
    excluded: set[str] | None = None,
) -> dict[str, Any]:
    """Fit the full and the keyword-only judge; return them with the report's figures."""
    rows = labelled(paths, depth, excluded or set())
    x, y, groups, sets, index = matrix(rows)
    report: dict[str, Any] = {"questions": len(rows), "sources": int(len(y)), "depth": depth}
    judges: dict[str, Logistic] = {}
    for name, features in (
        (RELEVANCE_JUDGE, RELEVANCE_FEATURES),
        (KEYWORD_JUDGE, tuple(f for f in RELEVANCE_FEATURES if f not in VECTOR_FEATURES)),
    ):
        columns = [RELEVANCE_FEATURES.index(f) for f in features]
        xs = x[:, columns]
        held = out_of_fold(features, xs, y, groups)
        keep = lowest_keeping(held, y, GOLD_KEPT)
        thresholds = {"keep": keep, **question_thresholds(held, y, index)}
        fitted = fit_logistic(name, features, xs, y)
        fitted_for = {"embedding_model": embedding_model} if name == RELEVANCE_JUDGE else {}
        judges[name] = Logistic(
            **{**fitted.__dict__, "thresholds": thresholds, "fitted_for": fitted_for}
        )
        away = left_out(features, xs, y, sets)
        report[name] = {
            "thresholds": {k: round(v, 4) for k, v in thresholds.items()},
            "held_out_auc": round(auc(y, held) or 0.0, 3),
            "held_out": keep_table(held, y, keep, sets, lambda k: k),
            "verdicts_held_out": verdict_shares(held, index, thresholds),
            "left_out": [
                row
                for name_, p in away.items()
                for row in keep_table(p, y[sets == name_], keep, sets[sets == name_], lambda k: k)
            ],
        }
    report["ms_per_question"] = time_per_question(rows, judges[RELEVANCE_JUDGE])
    return {"judges": judges, "report": report}


def time_per_question(rows: list[dict[str, Any]], judge: Logistic, sample: int = 200) -> float:
    """Return the median milliseconds to describe and judge one question's sources, cold.

    The term extractor's caches are emptied first: every text is read as if seen for the first
    time, as a new question's sources are.
    """
    for value in vars(terms).values():
        if callable(getattr(value, "cache_clear", None)):
            value.cache_clear()
    spent = []
    for row in rows[:: max(1, len(rows) // sample)]:  # spread over every set
        sources = [(s["text"], s) for s in row["sources"]]
        started = time.perf_counter()
        for values in source_features(row["question"], sources):
            judge.probability(values)
        spent.append(1000 * (time.perf_counter() - started))
    return round(statistics.median(spent), 2)


def bridged(rows: list[dict[str, Any]], p: Matrix, index: Matrix, judge: Logistic) -> Matrix:
    """Return which sources core.judges.keep_sources keeps (grade_documents reads them first).

    grade_documents also reads the rest of a search with several of them, unless incorrect.
    """
    at_least, trusted = judge.thresholds["keep"], judge.thresholds["correct"]
    keep = p >= at_least
    for i, row in enumerate(rows):
        at = np.flatnonzero(index == i)
        texts = [s["text"] for s in row["sources"]]
        chosen = keep_sources(row["question"], texts, p[at].tolist(), at_least, trusted)
        keep[at] = False
        keep[at[chosen.order]] = True
    return keep


def share(flags: Matrix) -> float | None:
    """Return the share of true flags, rounded, or None with no flag."""
    return round(float(flags.mean()), 3) if flags.size else None


def every_gold(
    rows: list[dict[str, Any]], keep: Matrix, y: Matrix, index: Matrix, dataset: str
) -> str:
    """Return 'kept / questions' over a set's questions of two or more gold documents, all found."""
    found = kept = 0
    for i, row in enumerate(rows):
        gold = set(row["gold_doc_ids"])
        if row["dataset"] != dataset or len(gold) < 2:
            continue
        if {s["doc_id"] for s in row["sources"] if s["gold"]} != gold:
            continue
        at = index == i
        found += 1
        kept += bool(keep[at][y[at] == 1].all())
    return f"{kept} / {found}"


def judge_on(paths: list[Path], depth: int, judge: Logistic) -> list[dict[str, Any]]:
    """Score a shipped judge on sets it was not fitted on, at its own keep threshold.

    Beside the threshold alone, what grade_documents keeps (bridges included), and on how many
    questions of several gold documents, all found by search, every one of them is kept.
    """
    rows = labelled(paths, depth, set())
    x, y, _, sets, index = matrix(rows)
    columns = [RELEVANCE_FEATURES.index(f) for f in judge.features]
    p = predict(judge, x[:, columns])
    at_threshold = p >= judge.thresholds["keep"]
    keep = bridged(rows, p, index, judge)
    table = keep_table(p, y, judge.thresholds["keep"], sets, lambda k: k)
    for line in table:
        name, mask = line["set"], sets == line["set"]
        line["every_gold_kept"] = every_gold(rows, at_threshold, y, index, name)
        line["with_bridges_gold_kept"] = share(keep[mask & (y == 1)])
        line["with_bridges_other_rejected"] = share(~keep[mask & (y == 0)])
        line["with_bridges_every_gold_kept"] = every_gold(rows, keep, y, index, name)
    return table
