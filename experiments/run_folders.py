"""The `eval run` folder readers of benchmarks/goals.py, for the experiments beside this file.

An experiment runs as a script (`python experiments/NAME.py`), so this folder is first on its
path; benchmarks/ is added after it, where `goals` (a maintained benchmark) reads run folders.
"""

from __future__ import annotations

import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
if str(BENCHMARKS) not in sys.path:
    sys.path.append(str(BENCHMARKS))

from goals import Row, rows, run_folder  # noqa: E402

__all__ = ["Row", "rows", "run_folder"]
