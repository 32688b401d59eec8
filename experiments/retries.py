"""What searching the knowledge base again after a decline changed, over `eval run` folders.

    python experiments/retries.py eval-out/current/squad2_80 eval-out/current/multihop_rag_80

An adaptive run searched again after a decline when `transform_query` follows its first
`self_check`. Had it stopped there, the question would have been declined: right on an
unanswerable question, wrong on an answerable one. For each folder: how many runs searched
again, how many ended better or worse than that decline, and their latency against single-shot
on the same question (the median ratio).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from run_folders import Row, rows, run_folder


def searched_again(run: Row) -> bool:
    """Whether the run rewrote its query after its first check."""
    steps = list(run.get("steps") or [])
    return "self_check" in steps and "transform_query" in steps[steps.index("self_check") :]


def summary(folder: Path) -> tuple[int, int, int, int, list[float]]:
    """Return runs, runs searched again, better and worse than declining, and latency ratios."""
    records = rows(folder)
    single = {r["id"]: r for r in records if r["config"] == "single"}
    adaptive = [r for r in records if r["config"] == "adaptive"]
    again = [r for r in adaptive if searched_again(r)]
    stopped = [1.0 if r["impossible"] else 0.0 for r in again]  # a null query is impossible too
    better = sum(r["acc"] > s for r, s in zip(again, stopped, strict=True))
    worse = sum(r["acc"] < s for r, s in zip(again, stopped, strict=True))
    ratios = [r["seconds"] / single[r["id"]]["seconds"] for r in again if r["id"] in single]
    return len(adaptive), len(again), better, worse, ratios


def main(argv: list[str] | None = None) -> int:
    """Print one line per folder and the total."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=run_folder, help="`eval run` output folders")
    args = parser.parse_args(argv)
    totals = [0, 0, 0, 0]
    for folder in args.runs:
        runs, again, better, worse, ratios = summary(folder)
        median = f"{statistics.median(ratios):.2f}×" if ratios else "—"
        sys.stdout.write(
            f"{folder}: searched again {again} of {runs}; better {better}, worse {worse}; "
            f"their latency against single-shot {median} at the median\n"
        )
        totals = [t + v for t, v in zip(totals, (runs, again, better, worse), strict=True)]
    sys.stdout.write(
        f"all: searched again {totals[1]} of {totals[0]}; better {totals[2]}, worse {totals[3]}\n"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
