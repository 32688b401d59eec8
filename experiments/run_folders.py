"""The `eval run` folder readers of benchmarks/goals.py, for the experiments beside this file.

An experiment runs as a script (`python experiments/NAME.py`), so this folder is first on its
path; benchmarks/ is added after it, where `goals` (a maintained benchmark) reads run folders.
`print_replays` is the command line of the experiments that replay a rule on recorded answers.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
if str(BENCHMARKS) not in sys.path:
    sys.path.append(str(BENCHMARKS))

from goals import Row, rows, run_folder  # noqa: E402

__all__ = ["Row", "print_replays", "rows", "run_folder"]

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
