"""Count what the reliability tests inject and what came back; print the figures at the end."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

import pytest

FIGURES: dict[str, Counter[str]] = defaultdict(Counter)
COLUMNS = ("runs", "faults", "answers", "errors", "lost")


@pytest.fixture
def tally(request: pytest.FixtureRequest) -> Callable[..., None]:
    """Add counts under the test's module and name (without parameters)."""
    group = f"{request.node.module.__name__.rsplit('.', 1)[-1]}::{request.node.originalname}"

    def add(**counts: int) -> None:
        unknown = set(counts) - set(COLUMNS)
        assert not unknown, f"unknown figures {unknown}"
        FIGURES[group].update(counts)

    return add


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print one row per reliability test: runs, faults injected, answers, errors, data lost."""
    if not FIGURES:
        return
    write = terminalreporter.write_line
    terminalreporter.section("reliability figures")
    write(f"{'test':<78} " + " ".join(f"{c:>7}" for c in COLUMNS))
    total: Counter[str] = Counter()
    for name in sorted(FIGURES):
        total.update(FIGURES[name])
        write(f"{name:<78} " + " ".join(f"{FIGURES[name][c]:>7}" for c in COLUMNS))
    write(f"{'total':<78} " + " ".join(f"{total[c]:>7}" for c in COLUMNS))
