"""Fit the learned router on derived labels and judge it against rules+model on held-out folds.

    python experiments/router_fit.py eval-out/fixed/squad2 eval-out/fixed/multihop_rag

The run folders are `adaptive-rag eval run ... --configs adaptive,single,direct,multi` outputs;
the fit is written beside the first (router.json) and not used by the agent: an experiment,
measured and not shipped (docs/decisions.md#learned-router-not-shipped).

Both routers are scored on the same questions: routing accuracy against the derived label,
macro-F1, the share of questions needing retrieval that are routed to it, and the Acc and tokens
the routed strategy got on that question in the fixed-strategy runs (what the router would buy).
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from typing import Any

import numpy as np
from adaptive_rag.evaluation.aggregate import mean
from adaptive_rag.evaluation.labels import LABEL, ROUTE_LABEL, by_question, derive_labels
from adaptive_rag.evaluation.tables import table
from adaptive_rag.knowledge.embeddings import DEFAULT_EMBEDDINGS, load_embeddings
from adaptive_rag.nodes.classify import classify_by_rules
from router_map import SURFACE, RouterWeights, surface
from run_folders import rows as read_runs
from run_folders import run_folder

SPLITS = 10
"""Fold assignments the held-out figures are averaged over (a few dozen labels vary a lot)."""
STRATEGY = {label: strategy for strategy, label in LABEL.items()}


def training_rows(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Labelled questions that the adaptive graph also ran, with its route's label."""
    runs = by_question(records)
    rows = []
    for row in derive_labels(records):
        adaptive = runs[(row["dataset"], row["id"])].get("adaptive")
        if row["label"] and adaptive:
            rows.append({**row, "routed": ROUTE_LABEL.get(adaptive["route"], "B")})
    return rows


def rule_label(question: str) -> str | None:
    """Return the label a rule settles before any router runs (as classify does), else None."""
    ruled = classify_by_rules(question, has_history=False)
    return ROUTE_LABEL.get(ruled[0], "B") if ruled else None


def judge(rows: list[dict[str, Any]], predicted: list[str]) -> dict[str, float]:
    """Routing accuracy, macro-F1, needed-retrieval recall, and the routed strategies' Acc."""
    from sklearn.metrics import f1_score

    gold = [row["label"] for row in rows]
    needing = [p != "A" for g, p in zip(gold, predicted, strict=True) if g != "A"]
    return {
        "accuracy": mean([float(g == p) for g, p in zip(gold, predicted, strict=True)]),
        "macro_f1": float(
            f1_score(gold, predicted, labels=sorted(set(gold)), average="macro", zero_division=0)
        ),
        "needed_retrieval_recall": mean([float(n) for n in needing]),
        "answer_acc": mean(
            [float(r["acc"][STRATEGY[p]]) for r, p in zip(rows, predicted, strict=True)]
        ),
        "tokens_mean": mean(
            [float(r["tokens"][STRATEGY[p]]) for r, p in zip(rows, predicted, strict=True)]
        ),
    }


def fit_router(records: list[dict[str, Any]], seed: int = 0) -> dict[str, Any]:
    """Cross-validate the learned router against rules+model, then fit it on every label."""
    every = training_rows(records)
    found = [row["label"] for row in every]
    dropped = {c: found.count(c) for c in sorted(set(found)) if found.count(c) < 2}
    rows = [row for row in every if row["label"] not in dropped]  # one example cannot be held out
    labels = [row["label"] for row in rows]
    counts = {c: labels.count(c) for c in sorted(set(labels))}
    if len(counts) < 2:
        raise ValueError(
            f"the router needs at least two labels with two questions each; got"
            f" {counts or dropped} (run `eval run ... --configs adaptive,single,direct,multi`"
            " on more questions)"
        )
    embed = load_embeddings(DEFAULT_EMBEDDINGS)
    questions = [r["question"] for r in rows]
    emb = np.asarray([embed.embed_query(q) for q in questions])
    shape = np.asarray([surface(r["question"]) for r in rows])
    ruled = [rule_label(r["question"]) for r in rows]
    y = np.asarray(labels)
    folds = min(5, min(counts.values()))
    learned = [_held_out(questions, emb, shape, y, ruled, folds, seed + i) for i in range(SPLITS)]
    scores = [judge(rows, predicted) for predicted in learned]
    final = _fit(emb, shape, y)
    learned_summary = {k: round(mean([s[k] for s in scores]), 3) for k in scores[0]}
    rules_summary = {k: round(v, 3) for k, v in judge(rows, [r["routed"] for r in rows]).items()}
    oracle = judge(rows, labels)
    return {
        "classes": final["classes"],
        "coef": final["coef"],
        "intercept": final["intercept"],
        "mean": final["mean"],
        "scale": final["scale"],
        "features": ["embedding", *SURFACE],
        "embedding": DEFAULT_EMBEDDINGS,
        "n": len(rows),
        "labels": counts,
        "dropped": dropped,
        "folds": folds,
        "splits": SPLITS,
        "held_out": {
            "rules+learned": learned_summary,
            "rules+learned range": {
                k: [round(min(s[k] for s in scores), 3), round(max(s[k] for s in scores), 3)]
                for k in ("accuracy", "answer_acc")
            },
            "rules+model": rules_summary,
            "oracle": {k: round(v, 3) for k, v in oracle.items()},
        },
        "beats_rules_model": beats(learned_summary, rules_summary),
    }


def beats(learned: dict[str, float], rules: dict[str, float]) -> bool:
    """Ship only a router that routes better, answers no worse and keeps needed retrievals."""
    return bool(
        learned["accuracy"] > rules["accuracy"]
        and learned["answer_acc"] >= rules["answer_acc"]
        and learned["needed_retrieval_recall"] >= 0.95
    )


def _held_out(
    questions: list[str],
    emb: np.ndarray[Any, Any],
    shape: np.ndarray[Any, Any],
    y: np.ndarray[Any, Any],
    ruled: list[str | None],
    folds: int,
    seed: int,
) -> list[str]:
    """Out-of-fold labels of rules first, then the map fitted on the other folds."""
    from sklearn.model_selection import StratifiedKFold

    predicted = [""] * len(y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # a class smaller than the fold count
        for train, test in StratifiedKFold(folds, shuffle=True, random_state=seed).split(emb, y):
            fitted = RouterWeights.from_json(
                {**_fit(emb[train], shape[train], y[train]), "embedding": DEFAULT_EMBEDDINGS}
            )
            for i in test:
                odds = fitted.probabilities(emb[i].tolist(), questions[i])
                predicted[i] = ruled[i] or max(odds, key=odds.__getitem__)
    return predicted


def _fit(
    emb: np.ndarray[Any, Any], shape: np.ndarray[Any, Any], y: np.ndarray[Any, Any]
) -> dict[str, Any]:
    """Fit the logistic map over [embedding, standardised shape]; return it as JSON lists."""
    from sklearn.linear_model import LogisticRegression

    centre, spread = shape.mean(axis=0), shape.std(axis=0)
    spread[spread == 0] = 1.0
    x = np.hstack([emb, (shape - centre) / spread])
    model = LogisticRegression(C=1.0, max_iter=2000, class_weight="balanced").fit(x, y)
    return {
        "classes": [str(c) for c in model.classes_],
        "coef": model.coef_.tolist(),
        "intercept": model.intercept_.tolist(),
        "mean": centre.tolist(),
        "scale": spread.tolist(),
    }


def main(argv: list[str] | None = None) -> int:
    """Fit on the runs' records, print the held-out comparison and keep the fit beside them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "runs",
        nargs="+",
        type=run_folder,
        help="`eval run` folders with adaptive,single,direct,multi results to fit on",
    )
    args = parser.parse_args(argv)
    try:
        fitted = fit_router([r for folder in args.runs for r in read_runs(folder)])
    except ValueError as exc:
        parser.error(str(exc))
    fitted["fitted_on"] = [str(folder) for folder in args.runs]
    held = fitted["held_out"]
    rows = [{"router": name, **held[name]} for name in ("rules+model", "rules+learned", "oracle")]
    left_out = f" (left out, too few to hold out: {fitted['dropped']})" if fitted["dropped"] else ""
    print(
        f"{fitted['n']} labelled questions {fitted['labels']}{left_out}; {fitted['folds']}-fold,"
        f" mean of {fitted['splits']} splits (learned range {held['rules+learned range']})"
    )
    print(table(rows))
    local = args.runs[0] / "router.json"
    local.write_text(json.dumps(fitted, indent=1))
    verdict = "beats" if fitted["beats_rules_model"] else "does not beat"
    print(
        f"the learned router {verdict} rules+model on held-out folds (higher routing accuracy,"
        f" no lower answer Acc, needed-retrieval recall >= 0.95); fit -> {local}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
