"""Running an experiment from the clone's experiments/ folder on runs written here."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from script_runs import runs_writer, script_runner

EXPERIMENTS = Path(__file__).resolve().parents[2] / "experiments"


@pytest.fixture
def experiment(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], ModuleType]:
    """Return a function that imports experiments/NAME.py as running it does (its folder first)."""
    monkeypatch.syspath_prepend(str(EXPERIMENTS))
    return importlib.import_module


@pytest.fixture
def run_script() -> Callable[..., str]:
    """Return a function that runs experiments/NAME with arguments and returns what it printed."""
    return script_runner(EXPERIMENTS)


@pytest.fixture
def write_runs(tmp_path: Path) -> Callable[[str, list[dict[str, object]]], Path]:
    """Return a function that writes runs as the `eval run` folder tmp_path/NAME and returns it."""
    return runs_writer(tmp_path)
