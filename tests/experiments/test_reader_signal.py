"""experiments/reader_signal.py: a reader's logits as answerability features, from kept scores."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path


def _key(question: str, text: str) -> str:
    return hashlib.sha256(f"{question}\x00{text}".encode()).hexdigest()[:32]


def _runs(dataset: str, count: int) -> tuple[list[dict[str, object]], dict[str, float]]:
    """Runs whose judge features say nothing, and whose answers the reader tells apart."""
    runs, scores = [], {}
    for i in range(count):
        impossible = i % 3 == 0
        question = f"{dataset} question {i}?"
        answer = f"It was {i + 100} [1]." if impossible else f"It is {i} [1]."
        source = f"Source {i}. It has two sentences."
        runs.append(
            {
                "dataset": dataset,
                "config": "adaptive",
                "id": f"{dataset}-{i}",
                "question": question,
                "language": "en",
                "impossible": impossible,
                "answer": answer,
                "written": answer,
                "sources_read": [f"doc{i}\n{source}"],
                "answer_features": {"support": 0.5 + 0.01 * (i % 7)},
            }
        )
        scores[_key(question, answer)] = -4.0 if impossible else 4.0
        for text in (source, f"Source {i}.", "It has two sentences."):
            scores[_key(question, text)] = 0.1 * (i % 5)
    return runs, scores


def test_each_feature_set_is_reported_and_the_reader_gain_shows(
    tmp_path: Path, run_script: Callable[..., str], write_runs: Callable[..., Path]
) -> None:
    first, first_scores = _runs("first", 30)
    second, second_scores = _runs("second", 30)
    test, test_scores = _runs("test", 15)
    scores = tmp_path / "scores.json"
    scores.write_text(json.dumps({**first_scores, **second_scores, **test_scores}))
    out = run_script(
        "reader_signal.py",
        "--scores",
        scores,
        "--fit",
        write_runs("first", first),
        write_runs("second", second),
        "--test",
        write_runs("test", test),
    )
    assert "fit on 60 runs (40 answerable); tested on 15 (10 answerable" in out, out
    rows = {
        line.split(" | ")[0].lstrip("| "): line
        for line in out.splitlines()
        if line.startswith("| ") and not line.startswith("| features")
    }
    assert list(rows) == ["judge's features", "+ reader on the answer", "+ every reader signal"]
    assert "| pooled 1.000; test 1.000 |" in rows["+ reader on the answer"], out
    assert "| pooled 1.000; test 1.000 |" not in rows["judge's features"], out
    assert "| 5/5, 0/10 |" in rows["+ reader on the answer"], out
    assert rows["judge's features"].endswith("| +0.000 [+0.000, +0.000] |"), out


def test_pairs_missing_from_the_scores_need_the_reader(
    run_script: Callable[..., str], write_runs: Callable[..., Path]
) -> None:
    runs, _ = _runs("first", 6)
    folder = write_runs("first", runs)
    error = run_script("reader_signal.py", "--fit", folder, "--test", folder, code=1)
    assert "pairs are not in --scores: give --reader" in error
