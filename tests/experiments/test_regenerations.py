"""experiments/regenerations.py: what writing again after a failed check changed, from records."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path


def _run(config: str, qid: str, acc: float, again: int, docs: list[str]) -> dict[str, object]:
    return {
        "config": config,
        "id": qid,
        "acc": acc,
        "regenerations": again,
        "generations": again + 1,
        "used_doc_ids": docs,
        "seconds": 20.0 if again else 10.0,
        "node_seconds": {"generate": 12.0 if again else 8.0},
    }


def test_it_compares_the_answer_written_again_with_the_first(
    tmp_path: Path, run_script: Callable[..., str]
) -> None:
    runs = [
        _run("adaptive", "a", 1.0, 1, ["d1", "d2"]),  # written again, right: better than first
        _run("adaptive", "b", 0.0, 1, ["d1"]),  # written again, wrong: worse than first
        _run("adaptive", "c", 1.0, 1, ["d3"]),  # other sources than single-shot: not comparable
        _run("adaptive", "d", 1.0, 0, ["d1"]),  # written once
    ]
    single = [
        {**_run("single", "a", 0.0, 0, ["d1", "d2"]), "seconds": 10.0},
        {**_run("single", "b", 1.0, 0, ["d1"]), "seconds": 10.0},
        {**_run("single", "c", 0.0, 0, ["d1"]), "seconds": 10.0},
        {**_run("single", "d", 1.0, 0, ["d1"]), "seconds": 10.0},
    ]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in runs + single))
    out = run_script("regenerations.py", tmp_path)
    assert "written again 3 of 4" in out, out
    assert "over the same sources as single-shot 2, better than the first answer 1, worse 1" in out
    # p50 of 20, 20, 20, 10 s is 20 s (2.00×); less half of 12 s each: 14, 14, 14, 10 -> 1.40×
    assert "p50 2.00× single-shot, about 1.40× without the later writes" in out
