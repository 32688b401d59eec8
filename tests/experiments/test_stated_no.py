"""experiments/stated_no.py: the recorded no answers a cited sentence states."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

PAGE = "MFA is required for email. Codes sent by SMS are not allowed."


def _row(question: str, answer: str, acc: float, **more: object) -> dict[str, object]:
    return {
        "config": "adaptive",
        "question": question,
        "answer": answer,
        "written": answer,
        "sources_read": [PAGE],
        "acc": acc,
        "declined": False,
        "features": {},
        **more,
    }


def test_it_lists_the_stated_no_answers_by_outcome(
    tmp_path: Path, run_script: Callable[..., str]
) -> None:
    rows = [
        _row(
            "Can I use SMS codes for MFA?", "No, you cannot use SMS codes [1].", 0.0, declined=True
        ),
        _row("Can I use SMS codes for MFA?", "Yes, you can [1].", 0.0),
        _row("What is MFA?", "No idea [1].", 0.0),
        _row("Can I use SMS codes for MFA?", "No.", 1.0, features={"direct": 1.0}),
    ]
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = run_script("stated_no.py", path)
    assert "wrong, declined 1" in out and "Codes sent by SMS are not allowed." in out
    assert out.count("<-") == 1
