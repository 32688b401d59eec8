"""The `eval run` folder readers of benchmarks/goals.py, for the experiments beside this file.

An experiment runs as a script (`python experiments/NAME.py`), so this folder is first on its
path; benchmarks/ is added after it, where `goals` (a maintained benchmark) reads run folders.
`print_replays` is the command line of the experiments that replay a rule on recorded answers;
`yes_no_answers` reads the adaptive graph's written answers to yes/no questions, and `outcome`
names a recorded answer's outcome, for them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
if str(BENCHMARKS) not in sys.path:
    sys.path.append(str(BENCHMARKS))

from adaptive_rag.core.question import asks_yes_no  # noqa: E402
from goals import Row, rows, run_folder  # noqa: E402

__all__ = ["Row", "outcome", "print_replays", "rows", "run_folder", "yes_no_answers"]

Replay = Callable[[Path], tuple[Mapping[str, int], list[str]]]
"""A rule replayed on one run's results.jsonl: its counts by outcome, and a line per answer."""


def print_replays(description: str, replay: Replay) -> None:
    """Read results.jsonl paths from the command line; print each run's counts and lines."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("runs", nargs="+", type=Path, help="results.jsonl of an eval run")
    for path in parser.parse_args().runs:
        counts, lines = replay(path)
        print(f"{path}: " + (", ".join(f"{k} {v}" for k, v in counts.items()) or "none"))
        if lines:
            print("\n".join(lines))


def outcome(row: Row) -> tuple[str, str]:
    """Return a recorded answer's outcome: unanswerable, right or wrong; declined or answered."""
    label = "unanswerable" if row.get("impossible") else "right" if row["acc"] else "wrong"
    return label, "declined" if row["declined"] else "answered"


def yes_no_answers(path: Path) -> Iterator[tuple[Row, str, list[str]]]:
    """Yield each adaptive answer written from sources to a yes/no question, with its sources.

    The written answer (before any decline), from a run's results.jsonl; answers from the
    model's own knowledge, and those with no answer or no source read, are left out.
    """
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["config"] != "adaptive" or (row.get("features") or {}).get("direct"):
            continue
        answer = row.get("written") or row["answer"]
        read = row.get("sources_read") or []
        if answer and read and asks_yes_no(row["question"]):
            yield row, answer, read
