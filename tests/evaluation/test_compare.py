"""Per-question comparisons on hand-made records: checks, cost against full, retrieval's harm."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from adaptive_rag.evaluation.compare import against_full, by_checks, held_out, retrieval_harm
from adaptive_rag.evaluation.report import build_report


def _run(
    qid: str,
    config: str,
    acc: float,
    first_acc: float | None = None,
    impossible: bool = False,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "dataset": "d",
        "id": qid,
        "config": config,
        "kind": "impossible" if impossible else "answerable",
        "route": config,
        "impossible": impossible,
        "acc": acc,
        "em": acc,
        "f1": acc,
        "declined": impossible and acc == 1.0,
        "language_ok": True,
        "cited": False,
        "gold_doc_ids": [],
        "used_doc_ids": [],
        "model_calls": 1,
        "tokens_in": 100,
        "tokens_out": 10,
        "seconds": 1.0,
        "first_acc": first_acc,
        **extra,
    }


def test_checks_lost_and_mended_answers() -> None:
    records = [
        _run("a", "full", 0.0, first_acc=1.0),  # right at first, declined or spoiled: lost
        _run("b", "full", 1.0, first_acc=0.0),  # wrong at first, right at the end: mended
        _run("c", "full", 1.0, first_acc=None),  # nothing written at first, right: mended
        _run("d", "full", 1.0, first_acc=1.0),  # right throughout
        _run("e", "full", 0.0, first_acc=None),  # never right
        # the gold's words inside "the sources do not say": a decline in words, not right at first
        _run("h", "full", 0.0, first_acc=1.0, first_answer="The sources do not say whether X."),
        _run("f", "full", 1.0, impossible=True),  # unanswerable: not counted
        _run("a", "single", 1.0, first_acc=1.0),
    ]
    old = _run("g", "single", 0.0)
    del old["first_acc"]  # a run recorded before first answers were: left out
    rows = {r["config"]: r for r in by_checks([*records, old])}
    full = rows["full"]
    assert full["answerable"] == 6 and full["first written right"] == 2
    assert full["final right"] == 3
    assert full["lost to checks"] == 1 and full["mended by checks"] == 2
    single = rows["single"]
    assert single["answerable"] == 1 and single["lost to checks"] == single["mended by checks"] == 0


def test_wrong_answers_caused_by_retrieval_pair_with_direct_by_id() -> None:
    records = [
        _run("q1", "direct", 1.0),
        _run("q1", "single", 0.0),  # right without retrieval, wrong with it
        _run("q1", "adaptive", 1.0),
        _run("q2", "direct", 1.0),
        _run("q2", "single", 0.0),  # again
        _run("q2", "adaptive", 0.0),  # and here
        _run("q3", "direct", 0.0),
        _run("q3", "single", 1.0),
        _run("q3", "adaptive", 0.0),  # wrong, but so was direct: not retrieval's doing
        _run("q4", "direct", 1.0, impossible=True),
        _run("q4", "single", 0.0, impossible=True),  # unanswerable: not counted
        _run("q5", "single", 0.0),  # no direct run to pair with
    ]
    rows = {r["config"]: r for r in retrieval_harm(records)}
    assert set(rows) == {"adaptive", "single"}
    assert rows["single"]["answerable"] == 3 and rows["single"]["wrong where direct right"] == 2
    assert rows["single"]["share"] == round(2 / 3, 3) and rows["single"]["direct right"] == 2
    assert rows["adaptive"]["wrong where direct right"] == 1


def test_cost_is_a_multiple_of_full() -> None:
    records = [_run(str(i), "full", 1.0, seconds=2.0, tokens_in=300, tokens_out=100) for i in "ab"]
    records += [_run("a", "adaptive", 1.0, seconds=1.0), _run("b", "adaptive", 1.0, seconds=3.0)]
    (row,) = against_full(records)
    assert row["config"] == "adaptive" and row["tokens × full"] == round(110 / 400, 2)
    assert row["p50 × full"] == 0.5 and row["p95 × full"] == 1.5
    assert against_full([r for r in records if r["config"] != "full"]) == []


def test_held_out_questions_are_summarised_apart() -> None:
    records = [_run("a", "adaptive", 1.0), _run("a", "single", 0.0)]
    assert held_out(records) is None
    records += [
        _run("b", "adaptive", 1.0, held_out=True),
        _run("b", "single", 0.0, held_out=True),
        _run("b", "direct", 1.0, held_out=True),
    ]
    held = held_out(records)
    assert held is not None
    parts = {(r["part"], r["config"]): r["n"] for r in held["summary"]}
    assert parts == {
        ("held-out", "adaptive"): 1,
        ("held-out", "direct"): 1,
        ("held-out", "single"): 1,
        ("rest", "adaptive"): 1,
        ("rest", "single"): 1,
    }
    assert [r["kind"] for r in held["by_kind"]] == ["answerable"]
    assert [r["pair"] for r in held["paired"]] == ["adaptive vs single", "adaptive vs direct"]


def test_the_report_shows_the_comparisons(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from adaptive_rag.evaluation import report

    monkeypatch.setattr(report, "plots", lambda *args: [])
    records = []
    for qid, direct, single, adaptive in (("q1", 1.0, 0.0, 1.0), ("q2", 1.0, 1.0, 0.0)):
        records += [
            _run(qid, "direct", direct, first_acc=direct),
            _run(qid, "single", single, first_acc=single),
            _run(qid, "adaptive", adaptive, first_acc=1.0, held_out=qid == "q2"),
            _run(qid, "full", 1.0, first_acc=0.0, seconds=2.0),
        ]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    text = build_report(tmp_path).read_text()
    assert "## Answers the graph's own checks lost and mended" in text
    assert "## Against the full pipeline" in text and "## Wrong answers caused by retrieval" in text
    assert "## Held-out questions" in text and "adaptive vs direct" in text
    assert "- d: adaptive against full: p50 latency ×0.5, p95 ×0.5, tokens ×1.0" in text
    assert "- d: single wrong where direct (no retrieval) was right: 1/2" in text
    summary = json.loads((tmp_path / "summary.json").read_text())
    checks = {r["config"]: r for r in summary["checks"]}
    assert checks["adaptive"]["lost to checks"] == 1 and checks["full"]["mended by checks"] == 2
    assert {r["config"] for r in summary["retrieval_harm"]} == {"adaptive", "full", "single"}
    assert summary["held_out"]["summary"][0]["part"] == "held-out"
