"""Count what the reliability tests inject and what came back; print the figures at the end.

Runs, answers and errors of in-process graphs are counted from what happened (every top-level
`invoke` or `stream` of a compiled graph during the test); a test states only what it injected
(`faults`), what it found lost, and, for runs over HTTP, what the server returned.
"""

from __future__ import annotations

import threading
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from click.testing import Result
from langgraph.pregel import Pregel
from typer.testing import CliRunner

FIGURES: dict[str, Counter[str]] = defaultdict(Counter)
COLUMNS = ("runs", "faults", "answers", "errors", "lost", "leaks")


def _has_answer(value: Any) -> bool:
    """Whether an output or stream chunk carries a non-empty answer anywhere inside it."""
    if isinstance(value, dict):
        answer = value.get("answer")
        if isinstance(answer, str) and answer.strip():
            return True
        return any(_has_answer(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_has_answer(v) for v in value)
    return False


@pytest.fixture(autouse=True)
def _count_runs(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Count every top-level graph run or CLI call of the test: made, answered, crashed."""
    figures = FIGURES[_group(request)]
    depth = threading.local()
    invoke, stream, cli_invoke = Pregel.invoke, Pregel.stream, CliRunner.invoke

    def counted_invoke(self: Pregel, *args: Any, **kwargs: Any) -> Any:
        if getattr(depth, "level", 0):
            return invoke(self, *args, **kwargs)
        depth.level = 1
        figures["runs"] += 1
        try:
            out = invoke(self, *args, **kwargs)
        except Exception:
            figures["errors"] += 1
            raise
        finally:
            depth.level = 0
        figures["answers"] += _has_answer(out)
        return out

    def counted_stream(self: Pregel, *args: Any, **kwargs: Any) -> Iterator[Any]:
        if getattr(depth, "level", 0):
            yield from stream(self, *args, **kwargs)
            return
        depth.level = 1
        figures["runs"] += 1
        answered = False
        try:
            for chunk in stream(self, *args, **kwargs):
                answered = answered or _has_answer(chunk)
                yield chunk
        except Exception:
            figures["errors"] += 1
            raise
        finally:
            depth.level = 0
        figures["answers"] += answered

    def counted_cli(self: CliRunner, *args: Any, **kwargs: Any) -> Result:
        depth.level = 1  # the graph runs inside count as this one CLI call
        try:
            result = cli_invoke(self, *args, **kwargs)
        finally:
            depth.level = 0
        crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
        figures["runs"] += 1
        figures["errors"] += crashed
        figures["answers"] += not crashed and bool(result.output.strip())
        return result

    monkeypatch.setattr(Pregel, "invoke", counted_invoke)
    monkeypatch.setattr(Pregel, "stream", counted_stream)
    monkeypatch.setattr(CliRunner, "invoke", counted_cli)


def _group(request: pytest.FixtureRequest) -> str:
    """Name a test's row: its module and name, without parameters."""
    return f"{request.node.module.__name__.rsplit('.', 1)[-1]}::{request.node.originalname}"


@pytest.fixture
def tally(request: pytest.FixtureRequest) -> Callable[..., None]:
    """Add counts under the test's module and name (without parameters)."""
    group = _group(request)

    def add(**counts: int) -> None:
        unknown = set(counts) - set(COLUMNS)
        assert not unknown, f"unknown figures {unknown}"
        FIGURES[group].update(counts)

    return add


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print one row per reliability test: runs, faults injected, answers, errors, lost, leaks."""
    if not FIGURES:
        return
    write = terminalreporter.write_line
    terminalreporter.section("reliability figures")
    write(f"{'test':<78} " + " ".join(f"{c:>7}" for c in COLUMNS))
    total: Counter[str] = Counter()
    for name in sorted(n for n in FIGURES if any(FIGURES[n].values())):
        total.update(FIGURES[name])
        write(f"{name:<78} " + " ".join(f"{FIGURES[name][c]:>7}" for c in COLUMNS))
    write(f"{'total':<78} " + " ".join(f"{total[c]:>7}" for c in COLUMNS))
