"""experiments/general_first.py: asking the model before any search, simulated from a run."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path


def _run(qid: str, kind: str, acc: float, route_method: str = "fitted") -> dict[str, object]:
    return {
        "config": "adaptive",
        "id": qid,
        "kind": kind,
        "question": f"question {qid}?",
        "acc": acc,
        "seconds": 10.0,
        "route": "simple",
        "route_method": route_method,
        "history": [],
    }


def test_it_reports_what_the_policy_would_change(
    tmp_path: Path, run_script: Callable[..., str]
) -> None:
    runs = [
        _run("g", "general", 0.0),  # taken, and the model is right: mended
        _run("k", "kb_simple", 1.0),  # taken, the model confidently wrong: lost
        _run("u", "kb_simple", 1.0),  # the judge unsure: the run stands
        _run("r", "kb_simple", 1.0),  # rare names: never asked
        _run("s", "chat", 1.0, route_method="rule"),  # routed by a rule: not eligible
    ]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in runs))
    asked = [
        {"id": "g", "rare": [], "seconds": 1.0, "answer": "CO2", "p": 0.9, "right": 1.0},
        {"id": "k", "rare": [], "seconds": 1.0, "answer": "no", "p": 0.7, "right": 0.0},
        {"id": "u", "rare": [], "seconds": 1.0, "answer": "?", "p": 0.2, "right": 1.0},
        {"id": "r", "rare": ["Quillon"]},
    ]
    answers = tmp_path / "asked.jsonl"
    answers.write_text("".join(json.dumps(a) + "\n" for a in asked))
    out = run_script("general_first.py", tmp_path, "set", "--out", answers, "--report-only")
    assert "general            1      1      1    0.000       1.000" in out, out
    assert "kb_simple          3      2      1    1.000       0.667" in out, out
    assert "all                5                  0.800       0.800" in out, out
    assert "median seconds: run 10.0, policy 10.0" in out
    assert "kb_simple: 'question k?' 1 -> 0 (p 0.70)" in out
