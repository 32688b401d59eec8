"""Running a benchmark script from the clone's benchmarks/ folder, as a developer does."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture
def run_script() -> Callable[..., str]:
    """Return a function that runs benchmarks/NAME with arguments and returns what it printed.

    With `code`, the script must exit with that code, and what it wrote to stderr is returned.
    """

    def run(name: str, *args: object, code: int = 0) -> str:
        command = [sys.executable, str(BENCHMARKS / name), *map(str, args)]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        assert done.returncode == code, done.stderr
        return done.stdout if code == 0 else done.stderr

    return run
