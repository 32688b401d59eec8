"""Fit the general-knowledge judge: is the model's answer with no documents right?

    python benchmarks/fitting/general_fit.py collect --out eval-out/general/direct.jsonl
    python benchmarks/fitting/general_fit.py fit eval-out/general/direct.jsonl \
        --write core/judges/weights/general.json

`collect` asks the model each question of the fit pools as `answer_general` asks it (the direct
prompt, no documents) and keeps its answer, the answer's mean token log-probability and whether it
is right (a gold answer contained; a question the shared sets mark unanswerable is never right:
its decline is). The pools are the shared sets' questions, the general-knowledge candidates of
benchmarks/sets/traffic_mix and the definitions of `general_fit_pool.jsonl` (real terms with the
words a right definition holds, and made-up terms no answer is right for), less every question
of the traffic-mix and company sets, which measure the judge and are never fitted on. Answers
already collected are kept (a rerun resumes).

`fit` fits a logistic model over `core.judges.general.FEATURES`, reports its AUC and its decisions
(answer when the judge finds the answer more likely right than wrong) on held-out folds grouped by
question and on each pool left out of the fit, and with `--write` ships it, fitted with both
labels weighed alike: the pools' share of wrong answers is how they were drawn (made-up terms,
questions about paragraphs), not a property of the questions that reach the judge.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
from adaptive_rag.core.judges import GENERAL_FEATURES, SURE_FROM, features
from adaptive_rag.core.text import language_of
from adaptive_rag.evaluation.data import read_jsonl
from adaptive_rag.evaluation.judge_fit import (
    auc,
    fit_logistic,
    held_out_by,
    left_out_by,
    logistic_fit,
)
from adaptive_rag.evaluation.metrics import contains
from adaptive_rag.evaluation.sets import load_eval_set

SETS = Path(__file__).resolve().parents[1] / "sets"
MEASURED = (
    SETS / "traffic_mix" / "traffic_mix.jsonl",
    SETS / "traffic_mix" / "company.jsonl",
    SETS / "handbook" / "handbook.jsonl",
)
"""The sets whose questions are measured, never fitted on."""
ANSWER_AT = 0.5
"""The judge's probability from which an answer is returned: more likely right than wrong."""


def measured_questions() -> set[str]:
    """Return the questions the traffic-mix, company and handbook sets measure (never fitted on)."""
    held: set[str] = set()
    for path in MEASURED:
        if path.exists():
            held |= {r["question"].strip() for r in read_jsonl(path)}
    return held


def pools(seed: int) -> list[dict[str, Any]]:
    """Return the fit questions: id, pool, question, answers, impossible."""
    rng = random.Random(seed)
    held = measured_questions()
    found: list[dict[str, Any]] = []

    def take(pool: str, rows: list[dict[str, Any]], n: int) -> None:
        rows = [r for r in rows if r["question"].strip() not in held]
        rng.shuffle(rows)
        for r in rows[:n]:
            found.append(
                {
                    "id": f"{pool}:{r['id']}",
                    "pool": pool,
                    "question": r["question"],
                    "answers": r["answers"],
                    "impossible": bool(r["impossible"]),
                }
            )

    squad = load_eval_set("squad2").questions
    take("squad2", [q for q in squad if not q["impossible"]], 30)
    take("squad2_unanswerable", [q for q in squad if q["impossible"]], 20)
    take("cmrc2018", load_eval_set("cmrc2018").questions, 25)
    mhr = load_eval_set("multihop_rag").questions
    take("multihop_rag_null", [q for q in mhr if q["impossible"]], 20)
    definitions = Path(__file__).resolve().parent / "general_fit_pool.jsonl"
    take("definitions", read_jsonl(definitions), 1000)
    candidates = SETS / "traffic_mix" / "candidates_general.jsonl"
    if candidates.exists():
        rows = [
            {**r, "impossible": False, "id": r.get("id", i)}
            for i, r in enumerate(read_jsonl(candidates))
        ]
        take("general", rows, len(rows))
    return found


def collect(out: Path, seed: int) -> None:
    """Ask the model each fit question with no documents; append answer, log-probability, right."""
    from adaptive_rag.prompts import answer_general as prompts
    from adaptive_rag.providers.calls import call_model
    from adaptive_rag.schema.context import Context
    from adaptive_rag.services import Services

    done = {r["id"] for r in read_jsonl(out)} if out.exists() else set()
    todo = [q for q in pools(seed) if q["id"] not in done]
    ctx = Context()
    model = Services().chat(ctx)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a", encoding="utf-8") as sink:
        for i, q in enumerate(todo):
            language = language_of(q["question"])
            messages = prompts.messages(q["question"], language)
            reply = call_model(model, messages, stream=True, logprobs=True)
            right = 0.0 if q["impossible"] else contains(reply.text, q["answers"])
            sink.write(
                json.dumps(
                    {**q, "answer": reply.text, "logprob": reply.logprob, "right": right},
                    ensure_ascii=False,
                )
                + "\n"
            )
            sink.flush()
            print(f"{i + 1}/{len(todo)} {q['pool']} right={right:.0f} lp={reply.logprob}")


def matrix(rows: list[dict[str, Any]]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Return the feature rows and labels of collected answers."""
    x = []
    for r in rows:
        values = features(
            r["question"], r["answer"], r["logprob"], language_of(r["question"]) == "zh"
        )
        x.append([values.get(name, 0.0) for name in GENERAL_FEATURES])
    y = np.array([float(r["right"]) for r in rows])
    return np.array(x), y


def decisions(p: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> str:
    """Say how many answers are returned right and wrong at ANSWER_AT, of how many of each."""
    answered = p >= ANSWER_AT
    right, wrong = int((answered & (y == 1)).sum()), int((answered & (y == 0)).sum())
    return f"answers {right}/{int((y == 1).sum())} right ones, {wrong}/{int((y == 0).sum())} wrong"


def fit(path: Path, write: Path | None) -> None:
    """Fit the judge on collected answers; report it held out and per pool left out."""
    measured = measured_questions()  # the mix may have been fixed after answers were collected
    rows = [
        r
        for r in read_jsonl(path)
        if r["logprob"] is not None and r["question"].strip() not in measured
    ]
    x, y = matrix(rows)
    groups = np.array([r["id"] for r in rows])
    pools_of = np.array([r["pool"] for r in rows])
    print(f"{len(rows)} answers, {int(y.sum())} right")
    for name in sorted(set(pools_of.tolist())):
        mask = pools_of == name
        print(f"  {name}: {int(mask.sum())} answers, {int(y[mask].sum())} right")
    rule = (x[:, GENERAL_FEATURES.index("logprob")] >= SURE_FROM).astype(float)
    print(f"rule (log-probability from {SURE_FROM}): {decisions(rule, y)}")
    variants = (
        ("logprob only", ["logprob"], False),
        ("all features", list(GENERAL_FEATURES), False),
        ("all features, both labels weighed alike", list(GENERAL_FEATURES), True),
    )
    for label, columns, balanced in variants:
        idx = [GENERAL_FEATURES.index(c) for c in columns]
        held = held_out_by(logistic_fit(columns, balanced=balanced), x[:, idx], y, groups)
        print(f"{label}: held out AUC {auc(y, held):.3f}; {decisions(held, y)}")
        fitted = logistic_fit(columns, balanced=balanced)
        for pool, p in left_out_by(fitted, x[:, idx], y, pools_of).items():
            mask = pools_of == pool
            shown = "n/a" if (a := auc(y[mask], p)) is None else f"{a:.3f}"
            print(f"  {pool} left out: AUC {shown}; {decisions(p, y[mask])}")
    if write:
        model = fit_logistic(
            "general", GENERAL_FEATURES, x, y, balanced=True
        )  # the shipped variant
        from adaptive_rag.providers.chat import resolve_model_spec

        shipped = {
            **model.__dict__,
            "thresholds": {"answer": ANSWER_AT},
            "fitted_for": {"chat_model": resolve_model_spec("auto")},
        }
        model = type(model)(**shipped)
        write.write_text(json.dumps(model.to_json(), indent=2) + "\n", encoding="utf-8")
        print(f"wrote {write}")


def main(argv: list[str]) -> None:
    """Collect answers, or fit the judge on them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="ask the model each fit question with no documents")
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--seed", type=int, default=7)
    f = sub.add_parser("fit", help="fit the judge on collected answers and report it")
    f.add_argument("answers", type=Path)
    f.add_argument("--write", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.command == "collect":
        collect(args.out, args.seed)
    else:
        fit(args.answers, args.write)


if __name__ == "__main__":
    main(sys.argv[1:])
