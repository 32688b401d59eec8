"""experiments/skip_assess.py: adaptive, noassess and assess skipped where the search is read whole."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from adaptive_rag.nodekit.grading import READ_WHOLE

WHOLE = [
    {"node": "grade_documents", "detail": f"kept 2 of 4; the other 2 read after them, {READ_WHOLE}"}
]


def _run(
    config: str,
    qid: str,
    acc: float,
    *,
    declined: bool = False,
    whole: bool = False,
    impossible: bool = False,
    seconds: float = 10.0,
) -> dict[str, object]:
    return {
        "dataset": "set",
        "config": config,
        "id": qid,
        "acc": acc,
        "declined": declined,
        "impossible": impossible,
        "seconds": seconds,
        "judgments": WHOLE if whole else [],
    }


def test_it_composes_the_rule_from_the_two_configurations(
    tmp_path: Path, run_script: Callable[..., str]
) -> None:
    runs = [
        # read whole: the rule takes noassess's run (answered, wrong)
        _run("adaptive", "u", 1.0, declined=True, whole=True, impossible=True, seconds=20.0),
        _run("noassess", "u", 0.0, whole=True, impossible=True, seconds=10.0),
        _run("single", "u", 0.0, impossible=True),
        # one likely source: the rule keeps adaptive's run (declined, right)
        _run("adaptive", "v", 1.0, declined=True, impossible=True, seconds=8.0),
        _run("noassess", "v", 0.0, impossible=True, seconds=6.0),
        _run("single", "v", 0.0, impossible=True),
        _run("adaptive", "a", 1.0, seconds=12.0),
        _run("noassess", "a", 1.0, seconds=10.0),
        _run("single", "a", 0.0),
    ]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in runs))
    out = run_script("skip_assess.py", tmp_path)
    assert "3 questions, 1 searches read whole" in out, out
    assert "adaptive: Acc 1.000; unanswerable declined 2/2, answerable declined 0/1;" in out
    assert "against single-shot 3 / 0; p50 1.20× single-shot; difference [+1.000, +1.000]" in out
    assert "noassess: Acc 0.333; unanswerable declined 0/2" in out
    rule = "assess skipped where read whole: Acc 0.667; unanswerable declined 1/2"
    assert rule in out and "against single-shot 2 / 0; p50 1.00× single-shot" in out


def test_a_folder_without_noassess_runs_says_so(
    tmp_path: Path, run_script: Callable[..., str]
) -> None:
    (tmp_path / "results.jsonl").write_text(json.dumps(_run("adaptive", "a", 1.0)) + "\n")
    assert "needs runs of adaptive, noassess, single" in run_script("skip_assess.py", tmp_path)
