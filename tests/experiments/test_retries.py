"""experiments/retries.py: what searching again after a decline changed, from run records."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

ONCE = ["retrieve", "grade_documents", "assess", "generate", "self_check", "finalize"]
AGAIN = [*ONCE[:-1], "transform_query", "retrieve", "grade_documents", "generate", "self_check"]


def _run(
    config: str, qid: str, impossible: bool, acc: float, steps: list[str], seconds: float
) -> dict[str, object]:
    return {
        "config": config,
        "id": qid,
        "impossible": impossible,
        "kind": "unanswerable" if impossible else "answerable",
        "acc": acc,
        "steps": steps,
        "seconds": seconds,
    }


def test_it_counts_runs_searched_again_against_declining_at_once(
    tmp_path: Path, run_script: Callable[..., str]
) -> None:
    runs = [
        _run("adaptive", "a", False, 1.0, AGAIN, 30.0),  # found it the second time: better
        _run("adaptive", "b", True, 0.0, AGAIN, 20.0),  # answered an unanswerable one: worse
        _run("adaptive", "c", True, 1.0, AGAIN, 40.0),  # declined all the same
        _run("adaptive", "d", False, 1.0, ONCE, 10.0),  # checked once: not counted
    ]
    runs += [{**r, "config": "single", "steps": ["retrieve"], "seconds": 10.0} for r in runs]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in runs))
    out = run_script("retries.py", tmp_path)
    assert "searched again 3 of 4; better 1, worse 1" in out, out
    assert "3.00× at the median" in out
    assert "all: searched again 3 of 4; better 1, worse 1" in out
