"""experiments/unmeasured.py: the recorded answers to how much / how many that state no amount."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path


def _row(question: str, answer: str, acc: float, **more: object) -> dict[str, object]:
    row = {"config": "adaptive", "question": question, "answer": answer, "written": answer}
    return {**row, "acc": acc, "declined": False, **more}


def test_it_lists_the_answers_with_no_amount_by_outcome(
    tmp_path: Path, run_script: Callable[..., str]
) -> None:
    rows = [
        _row("How loud is the K2?", "The K2 is quite loud [1].", 0.0, impossible=True),
        _row("How loud is the K2?", "About 60 dB [1].", 1.0),
        _row("年假有几天？", "年假很多[1]。", 0.0, declined=True),
        _row("What is the K2?", "A label printer [1].", 1.0),
    ]
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = run_script("unmeasured.py", path)
    assert "failed: unanswerable, answered 1" in out and "failed: wrong, declined 1" in out
    assert "asks an amount, right 1" in out and out.count("->") == 2
