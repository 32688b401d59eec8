"""experiments/judge_families.py: the answerability judge's model families compared."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


def _runs(dataset: str, count: int, offset: float) -> list[dict[str, object]]:
    """Adaptive runs whose assess odds alone tell answerable (high) from unanswerable (low)."""
    runs = []
    for i in range(count):
        impossible = i % 3 == 0
        support = (0.1 if impossible else 0.8) + offset + 0.01 * (i % 5)
        runs.append(
            {
                "dataset": dataset,
                "config": "adaptive",
                "id": f"{dataset}-{i}",
                "impossible": impossible,
                "answer_features": {"support": support, "answer_facts": float(i % 4)},
            }
        )
    return runs


def test_each_family_is_judged_held_out_left_out_and_on_the_tests(
    run_script: Callable[..., str], write_runs: Callable[..., Path]
) -> None:
    first = write_runs("first", _runs("first", 30, 0.0))
    second = write_runs("second", _runs("second", 30, 0.05))
    test = write_runs("test", _runs("first", 12, 0.02))
    out = run_script("judge_families.py", "--fit", first, second, "--test", test)
    assert "fit on 48 runs (32 answerable); tested on 12" in out, out  # tested questions left out
    rows = [line for line in out.splitlines() if line.startswith("| ") and "family" not in line]
    names = [row.split(" | ")[0].lstrip("| ") for row in rows]
    assert names == ["logistic (shipped)", "boosted trees, depth 1", "boosted trees, depth 2"]
    # the odds separate the kinds in every set, so every family orders the test runs right
    assert all(row.endswith("| pooled 1.000; first 1.000 |") for row in rows), out


def test_a_folder_without_runs_is_named_in_a_clear_error(
    tmp_path: Path, run_script: Callable[..., str]
) -> None:
    error = run_script("judge_families.py", "--fit", tmp_path, "--test", tmp_path, code=2)
    assert f"not an `eval run` folder (no results.jsonl): {tmp_path}" in error
