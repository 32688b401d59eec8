"""experiments/spread_yes.py: the recorded yes answers no one cited sentence states."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

PAGE = (
    "You can carry over up to 5 unused days into the next year. If you leave during the year,"
    " your days are calculated from your end date. Salaries are paid on the 25th."
)
QUESTION = "Are unused vacation days paid out when I leave the company?"


def _row(answer: str, acc: float, **more: object) -> dict[str, object]:
    row = {"config": "adaptive", "question": QUESTION, "answer": answer, "written": answer}
    features = {"owned": 1.0}
    return {
        **row,
        "sources_read": [PAGE],
        "acc": acc,
        "declined": False,
        "features": features,
        **more,
    }


def test_it_lists_the_spread_yes_answers_of_owned_questions(
    tmp_path: Path, run_script: Callable[..., str]
) -> None:
    rows = [
        _row("Yes, unused vacation days are paid out [1].", 0.0, impossible=True),
        _row("No, they are not paid out [1].", 1.0),
        _row("Yes, unused vacation days are paid out [1].", 0.0, features={"owned": 0.0}),
    ]
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = run_script("spread_yes.py", path)
    assert "unanswerable, answered 1" in out and out.count("->") == 1
