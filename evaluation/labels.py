"""Complexity labels derived the Adaptive-RAG paper's way, for the model actually deployed.

A question is A if answering without retrieval gets it right, else B if single-step retrieval
does, else C if multi-step does; unlabelled if none does. The adaptive router is then judged
against these labels, and against an oracle that picks the cheapest correct strategy.
"""

from __future__ import annotations

from typing import Any

from adaptive_rag.evaluation.aggregate import mean

Record = dict[str, Any]

STRATEGIES = ("direct", "single", "multi")
"""The fixed strategies, cheapest first: no retrieval, single-step, multi-step."""
LABEL = {"direct": "A", "single": "B", "multi": "C"}
ROUTE_LABEL = {"general": "A", "simple": "B", "realtime": "B", "follow_up": "B", "complex": "C"}
"""The strategy each adaptive route stands for."""
CLASSES = ("A", "B", "C")


def tokens(record: Record) -> int:
    """Tokens a run sent and received."""
    return int(record.get("tokens_in", 0)) + int(record.get("tokens_out", 0))


def by_question(records: list[Record]) -> dict[tuple[str, str], dict[str, Record]]:
    """Group runs by (data set, question id), then by configuration."""
    grouped: dict[tuple[str, str], dict[str, Record]] = {}
    for r in records:
        grouped.setdefault((r["dataset"], r["id"]), {})[r["config"]] = r
    return grouped


def derive_labels(records: list[Record]) -> list[dict[str, Any]]:
    """Label every question all three strategies ran on (label None: none answered it)."""
    rows = []
    for (dataset, qid), runs in by_question(records).items():
        if not all(s in runs for s in STRATEGIES):
            continue
        correct = [s for s in STRATEGIES if runs[s]["acc"]]
        rows.append(
            {
                "dataset": dataset,
                "id": qid,
                "question": runs["single"]["question"],
                "kind": runs["single"].get("kind", ""),
                "label": LABEL[correct[0]] if correct else None,
                "acc": {s: bool(runs[s]["acc"]) for s in STRATEGIES},
                "tokens": {s: tokens(runs[s]) for s in STRATEGIES},
            }
        )
    return rows


def judge_router(records: list[Record], labels: list[dict[str, Any]]) -> dict[str, Any]:
    """Routing against derived labels: accuracy, macro-F1, confusion, regret, and the oracle."""
    from sklearn.metrics import accuracy_score, confusion_matrix, f1_score

    runs = by_question(records)
    rows = [(row, runs[(row["dataset"], row["id"])]) for row in labels]
    rows = [(row, r) for row, r in rows if "adaptive" in r]
    labelled = [(row, r) for row, r in rows if row["label"]]
    gold = [row["label"] for row, _ in labelled]
    routed = [ROUTE_LABEL.get(r["adaptive"]["route"], "B") for _, r in labelled]
    needing = [(g, p) for g, p in zip(gold, routed, strict=True) if g != "A"]
    regret = [row["id"] for row, r in rows if not r["adaptive"]["acc"] and any(row["acc"].values())]
    strategies = {
        "adaptive": [(bool(r["adaptive"]["acc"]), tokens(r["adaptive"])) for _, r in rows],
        "always single": [(row["acc"]["single"], row["tokens"]["single"]) for row, _ in rows],
        "always multi": [(row["acc"]["multi"], row["tokens"]["multi"]) for row, _ in rows],
        "oracle": [_oracle(row) for row, _ in rows],
    }
    matrix = confusion_matrix(gold, routed, labels=list(CLASSES)) if gold else None
    return {
        "n": len(rows),
        "labelled": len(labelled),
        "labels": {c: gold.count(c) for c in CLASSES},
        "accuracy": round(float(accuracy_score(gold, routed)), 3) if gold else 0.0,
        "macro_f1": round(
            float(f1_score(gold, routed, labels=list(CLASSES), average="macro", zero_division=0)),
            3,
        )
        if gold
        else 0.0,
        "needed_retrieval_recall": round(mean([float(p != "A") for _, p in needing]), 3),
        "confusion": {
            g: dict(zip(CLASSES, (int(v) for v in matrix[i]), strict=True))
            for i, g in enumerate(CLASSES)
        }
        if matrix is not None
        else {},
        "regret": regret,
        "strategies": [
            {
                "strategy": name,
                "acc": round(mean([float(a) for a, _ in pairs]), 3),
                "tokens_mean": round(mean([float(t) for _, t in pairs])),
            }
            for name, pairs in strategies.items()
        ],
    }


def _oracle(row: dict[str, Any]) -> tuple[bool, int]:
    """Return the cheapest correct strategy's result (the cheapest one's when none is)."""
    for strategy in STRATEGIES:
        if row["acc"][strategy]:
            return True, row["tokens"][strategy]
    return False, row["tokens"][STRATEGIES[0]]
