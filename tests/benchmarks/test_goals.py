"""benchmarks/goals.py: the decline's figures read from run records."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path


def _run(config: str, qid: str, impossible: bool, declined: bool, p: float) -> dict[str, object]:
    verdict = "decline" if declined else "answer"
    return {
        "dataset": "set",
        "config": config,
        "id": qid,
        "impossible": impossible,
        "declined": declined,
        "acc": float(impossible == declined),
        "gold_doc_ids": [] if impossible else ["d1"],
        "used_doc_ids": ["d1"],
        "judgments": [{"node": "self_check", "verdict": verdict, "score": p}],
    }


def test_it_reports_both_errors_auc_and_gold_read_declines(
    tmp_path: Path, run_script: Callable[..., str]
) -> None:
    runs = [
        _run("adaptive", "a", False, False, 0.9),
        _run("adaptive", "b", False, True, 0.2),  # declined with its gold document read
        _run("adaptive", "c", True, True, 0.1),
        _run("adaptive", "d", True, False, 0.5),
        # declined by self_check's rule (no probability), and before self_check (typed reason)
        {
            **_run("adaptive", "e", False, True, 0.0),
            "judgments": [{"node": "self_check", "verdict": "decline", "score": None}],
        },
        {
            **_run("adaptive", "f", False, True, 0.0),
            "judgments": [],
            "decline_reason": "empty_answer",
        },
    ]
    runs += [{**r, "config": "single", "declined": False, "judgments": []} for r in runs]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in runs))
    out = run_script("goals.py", tmp_path)
    assert "adaptive: Acc 0.333" in out and "unanswerable declined 1/2" in out, out
    assert "answerable declined 3/4" in out
    assert "AUC 0.750" in out  # 3 of the 4 (answerable, unanswerable) pairs ordered right
    assert "judged by the answerability judge: 4 of 6" in out
    assert (
        "every gold document read: 4, declined 3"
        " (1 by the judge, 1 by self_check's rule, 1 by empty_answer)"
    ) in out, out


def test_single_shot_is_also_scored_as_the_graphs_rule_reads_its_answer(
    tmp_path: Path, run_script: Callable[..., str]
) -> None:
    adaptive = [_run("adaptive", "a", True, True, 0.1), _run("adaptive", "b", False, False, 0.9)]
    single = [
        {**_run("single", "a", True, False, 0.0), "answer": "The sources do not say."},
        {**_run("single", "b", False, False, 0.0), "answer": "It was 1890 [1]."},
    ]
    runs = [{**r, "answer": r.get("answer", "An answer [1].")} for r in adaptive + single]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in runs))
    out = run_script("goals.py", tmp_path)
    assert "single: Acc 0.500" in out, out  # as recorded: the unsaid answer scored wrong
    assert "its 1 answers that only say the sources lack it read as declines: Acc 1.000" in out
    assert "adaptive 1.000, wins 0 / losses 0" in out


def test_another_judge_decides_the_recorded_features_again(
    tmp_path: Path, run_script: Callable[..., str]
) -> None:
    judge = {
        "name": "answerable",
        "features": ["support"],
        "coef": [10.0],
        "intercept": 0.0,
        "mean": [0.5],
        "scale": [1.0],
        "thresholds": {"decline": 0.5},
    }
    (tmp_path / "judge.json").write_text(json.dumps(judge))
    runs = [  # p 0.9 and 0.2 as recorded; the new judge reads support 0.2 and 0.9
        {**_run("adaptive", "a", True, False, 0.9), "answer_features": {"support": 0.2}},
        {**_run("adaptive", "b", False, True, 0.2), "answer_features": {"support": 0.9}},
        {**_run("adaptive", "c", False, False, 0.9), "answer_features": {"support": 0.9}},
        {
            **_run("adaptive", "d", False, True, 0.2),
            "answer_features": {"support": 0.9},
            "written": "It was built in 1890 [1].",  # the answer its decline replaced
            "question": "When was it built?",
            "answers": ["1890"],
        },
    ]
    runs += [{**r, "config": "single", "declined": False, "judgments": []} for r in runs]
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in runs))
    before = run_script("goals.py", folder)
    assert "adaptive: Acc 0.250" in before, before
    out = run_script("goals.py", folder, "--judge", tmp_path / "judge.json")
    assert "1 declined runs now answered, scored wrong (1 answerable)" in out, out
    assert "unanswerable declined 1/1; answerable declined 0/3" in out  # a declined; b, d not
    assert "adaptive: Acc 0.750" in out  # a and d now right; b's answer unknown, scored wrong
    assert "AUC 1.000" in out
