"""experiments/model_grader.py: the prompted grader beside the judge, on the same sources."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from judge_rows import write_chunks


def test_the_grader_is_compared_with_the_judges_held_out_keeps(
    experiment: Callable[[str], ModuleType], tmp_path: Path
) -> None:
    model_grader = experiment("model_grader")
    paths = [write_chunks(tmp_path, "alpha", 40), write_chunks(tmp_path, "beta", 40)]
    grades = tmp_path / "alpha.model_grades.jsonl"  # a grader that keeps everything
    rows = [{"id": str(i), "scores": [1.0, 0.5, 0.5, 1.0], "seconds": 6.0} for i in range(2, 12)]
    grades.write_text(
        "\n".join(json.dumps(r) for r in [*rows, {"id": "12", "scores": None, "seconds": 6.0}])
    )
    held = model_grader.judge_held_out(paths, 4, {"alpha:0", "alpha:1"})
    assert len(held["rows"]) == 78 and 0.0 <= held["keep"] <= 1.0
    (compared,) = model_grader.compare_model_grader(
        held["rows"], held["p"], held["y"], held["index"], held["keep"], [grades]
    )
    assert compared["set"] == "alpha" and compared["grader_gold_kept"] == 1.0
    assert compared["unreadable"] == 1 and compared["questions"] == 11
    assert compared["grader_other_rejected"] == 0.0 and compared["grader_median_s"] == 6.0
    assert compared["judge_other_rejected"] > 0.5
