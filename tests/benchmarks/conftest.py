"""Running a benchmark script from the clone's benchmarks/ folder on runs written here."""

from __future__ import annotations

import json
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


@pytest.fixture
def write_runs(tmp_path: Path) -> Callable[[str, list[dict[str, object]]], Path]:
    """Return a function that writes runs as the `eval run` folder tmp_path/NAME and returns it."""

    def write(name: str, runs: list[dict[str, object]]) -> Path:
        folder = tmp_path / name
        folder.mkdir()
        (folder / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in runs))
        return folder

    return write
