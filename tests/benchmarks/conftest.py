"""Running a benchmark script from the clone's benchmarks/ folder on runs written here."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from script_runs import runs_writer, script_runner

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture
def run_script() -> Callable[..., str]:
    """Return a function that runs benchmarks/NAME with arguments and returns what it printed."""
    return script_runner(BENCHMARKS)


@pytest.fixture
def write_runs(tmp_path: Path) -> Callable[[str, list[dict[str, object]]], Path]:
    """Return a function that writes runs as the `eval run` folder tmp_path/NAME and returns it."""
    return runs_writer(tmp_path)
