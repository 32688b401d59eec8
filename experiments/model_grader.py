"""The prompted grader the fitted retrieval evaluator replaced, kept as its baseline.

    python experiments/model_grader.py --limit 50

It asks the chat model to label every source yes / partial / no in one call (the CRAG
evaluator as a prompt), on the same retrieved sources `adaptive-rag eval fit-judges` fits the
relevance judge on (the same sets, depth and held-back sample, in the same `--out` folder, whose
retrievals it reuses), and compares the two on them: gold kept and others rejected by the grader
against the judge's out-of-fold probabilities at its keep threshold
(docs/decisions.md#relevance-is-judged-by-a-fitted-model-not-by-prompting-the-writer).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Literal

import numpy as np
from adaptive_rag.core.judges import RELEVANCE_FEATURES
from adaptive_rag.evaluation.data import read_jsonl
from adaptive_rag.evaluation.judge_data import collect, held_back_ids
from adaptive_rag.evaluation.judge_fit import Matrix, lowest_keeping, out_of_fold
from adaptive_rag.evaluation.relevance_fit import GOLD_KEPT, labelled, matrix
from adaptive_rag.evaluation.sets import load_eval_set
from adaptive_rag.evaluation.tables import table
from adaptive_rag.prompts.reading import reading_messages
from adaptive_rag.providers.calls import call_model, parse_json
from adaptive_rag.schema.context import Context
from adaptive_rag.services import Services
from langchain_core.documents import Document
from pydantic import BaseModel

TASK = """Task: judge whether each source above helps answer the question.
For each source, in order, answer:
- "yes": it contains the answer or facts needed for it
- "partial": it is about the same subject but lacks the answer
- "no": it is about something else
Question: {question}
Reply with JSON only: {{"grades": ["yes", "no", ...]}} with {count} grades, one per source."""

SCORES = {"yes": 1.0, "partial": 0.5, "no": 0.0}
KEEP_AT = 0.3
"""The prompted grader kept a source whose label scored at least this (yes or partial)."""


class Grades(BaseModel):
    """The grader's reply: one label per source, in order."""

    grades: list[Literal["yes", "partial", "no"]]


def grade(question: str, sources: list[dict[str, Any]], services: Services) -> dict[str, Any]:
    """Ask the chat model to label each source; return the labels' scores and the call's time."""
    docs = [Document(page_content=s["text"]) for s in sources]
    messages = reading_messages(docs, TASK.format(question=question, count=len(docs)))
    started = time.perf_counter()
    try:
        reply = call_model(services.fast(Context()), messages, Grades)
        labels = parse_json(reply.text, Grades).grades
        scores: list[float] | None = [SCORES[label] for label in labels]
    except Exception:  # an unreadable reply: the node kept every source, unverified
        scores = None
    seconds = time.perf_counter() - started
    if scores is not None and len(scores) != len(docs):
        scores = None
    return {"scores": scores, "seconds": round(seconds, 3)}


def model_grades(chunks: Path, depth: int, limit: int, seed: int = 7) -> Path:
    """Grade a seeded sample of a set's answerable questions' top `depth` sources (resumable)."""
    rows = [r for r in read_jsonl(chunks) if not r["impossible"] and r["gold_doc_ids"]]
    random.Random(seed).shuffle(rows)
    out = chunks.with_name(chunks.name.replace(".chunks.", ".model_grades."))
    done = {r["id"] for r in read_jsonl(out)} if out.exists() else set()
    services = Services(no_web=True)
    with out.open("a", encoding="utf-8") as sink:
        for row in rows[:limit]:
            if row["id"] in done:
                continue
            graded = grade(row["question"], row["sources"][:depth], services)
            record = {"id": row["id"], **graded}
            sink.write(json.dumps(record) + "\n")
            sink.flush()
    return out


def compare_model_grader(
    rows: list[dict[str, Any]],
    p: Matrix,
    y: Matrix,
    index: Matrix,
    keep: float,
    grade_files: list[Path],
) -> list[dict[str, Any]]:
    """Gold kept and others rejected by the prompted grader and the judge, on the same sources.

    The judge's probabilities are its out-of-fold ones (no source judged by a model fitted on
    its own question), kept from `keep`; the grader's seconds are its calls' median.
    """
    position = {(r["dataset"], r["id"]): i for i, r in enumerate(rows)}
    compared = []
    for path in grade_files:
        graded = read_jsonl(path)
        mine, theirs, labels, seconds, unread = [], [], [], [], 0
        for g in graded:
            dataset = path.name.split(".")[0]
            i = position.get((dataset, g["id"]))
            if i is None:
                continue
            mask = index == i
            seconds.append(float(g["seconds"]))
            if g["scores"] is None or len(g["scores"]) != int(mask.sum()):
                unread += 1
                continue
            scores = np.array(g["scores"])
            theirs.extend((scores >= KEEP_AT).tolist())
            mine.extend((p[mask] >= keep).tolist())
            labels.extend(y[mask].tolist())
        lab, a, b = np.array(labels), np.array(theirs), np.array(mine)
        if not len(lab):
            continue
        compared.append(
            {
                "set": path.name.split(".")[0],
                "questions": len(graded),
                "unreadable": unread,
                "grader_gold_kept": round(float(a[lab == 1].mean()), 3),
                "grader_other_rejected": round(float((~a[lab == 0]).mean()), 3),
                "judge_gold_kept": round(float(b[lab == 1].mean()), 3),
                "judge_other_rejected": round(float((~b[lab == 0]).mean()), 3),
                "grader_median_s": round(statistics.median(seconds), 2),
            }
        )
    return compared


def judge_held_out(paths: list[Path], depth: int, excluded: set[str]) -> dict[str, Any]:
    """Return the relevance judge's out-of-fold probabilities and keep threshold (as fit-judges)."""
    rows = labelled(paths, depth, excluded)
    x, y, groups, _, index = matrix(rows)
    held = out_of_fold(RELEVANCE_FEATURES, x, y, groups)
    return {
        "rows": rows,
        "p": held,
        "y": y,
        "index": index,
        "keep": lowest_keeping(held, y, GOLD_KEPT),
    }


def main(argv: list[str] | None = None) -> int:
    """Grade each set's sample by the prompted grader; print it beside the judge."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sets", default="squad2,cmrc2018,multihop_rag", help="comma-separated shared sets"
    )
    parser.add_argument("--corpus", type=Path, default=None, help="corpus JSONL for a custom set")
    parser.add_argument("--out", type=Path, default=Path("eval-out/judges"))
    parser.add_argument("--depth", type=int, default=4, help="sources per question")
    parser.add_argument("--held-back", type=int, default=80, help="`eval run --limit N` left out")
    parser.add_argument("--limit", type=int, default=50, help="questions graded per set")
    args = parser.parse_args(argv)
    paths, grades, excluded = [], [], set()
    for name in [n.strip() for n in args.sets.split(",") if n.strip()]:
        data = load_eval_set(name, args.corpus)
        excluded |= held_back_ids(data, args.held_back)
        paths.append(collect(data, args.out, args.depth))
        grades.append(model_grades(paths[-1], args.depth, args.limit))
    held = judge_held_out(paths, args.depth, excluded)
    rows = compare_model_grader(
        held["rows"], held["p"], held["y"], held["index"], held["keep"], grades
    )
    print("prompted grader vs the judge, same sources:\n" + table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
