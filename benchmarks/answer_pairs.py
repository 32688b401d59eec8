"""Two `eval run` folders of one set paired question by question.

Two stores, or before and after a change: Acc, the second run's wins and losses with the
bootstrap interval, how many answers are the same text, and the unanswerable questions each
declined; then the questions whose answers differ, side by side.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adaptive_rag.evaluation.data import read_jsonl

SHOWN = 160
"""Characters of each answer the differences table shows."""


def adaptive_answers(folder: Path) -> dict[str, dict[str, Any]]:
    """Return a run folder's adaptive-graph records by question id."""
    return {r["id"]: r for r in read_jsonl(folder / "results.jsonl") if r["config"] == "adaptive"}


def answers_pair(
    first_run: Path, second_run: Path, labels: tuple[str, str]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Pair two runs of the adaptive graph on the questions both answered.

    Returns the summary row and one row per question whose answer text differs.
    """
    from adaptive_rag.evaluation.aggregate import paired

    first, second = labels
    runs = {first: adaptive_answers(first_run), second: adaptive_answers(second_run)}
    ids = sorted(set(runs[first]) & set(runs[second]))
    both = [{**runs[label][i], "config": label} for label in runs for i in ids]
    (row,) = paired(both, config=second, baseline=first)
    unanswerable = [i for i in ids if runs[first][i].get("impossible")]
    declined = {
        label: sum(bool(runs[label][i].get("declined")) for i in unanswerable) for label in runs
    }
    differ = [i for i in ids if runs[first][i]["answer"] != runs[second][i]["answer"]]
    of = len(unanswerable)
    summary = {
        "set": row["dataset"],
        "questions": row["n"],
        f"{first} Acc": round(row["acc baseline"], 3),
        f"{second} Acc": round(row["acc"], 3),
        f"{second} won / lost": f"{row['wins']} / {row['losses']}",
        "difference, 95% interval": f"{row['difference']:+.3f} {row['95% interval']}",
        "same answer text": f"{len(ids) - len(differ)} / {len(ids)}",
        f"unanswerable declined ({first} / {second})": (
            f"{declined[first]} / {of}, {declined[second]} / {of}"
        ),
    }
    differences = []
    for i in differ:
        shown: dict[str, Any] = {"set": row["dataset"], "id": i}
        for label in runs:
            shown[f"{label} Acc"] = runs[label][i].get("acc", 0)
            shown[label] = _shown(runs[label][i]["answer"])
        differences.append(shown)
    return summary, differences


def _shown(answer: str) -> str:
    """One line of an answer, cut for a table."""
    line = " ".join(answer.split()).replace("|", "/")
    return line if len(line) <= SHOWN else f"{line[: SHOWN - 1]}…"
