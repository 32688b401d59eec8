"""Whether CRAG's `ambiguous` verdict earns its path: refinement against reading as `correct`.

    python benchmarks/ambiguous_band.py screen squad2 --run eval-out/squad2 --limit 200 \
        --low 0.482 --high 0.8 --out eval-out/band/squad2.jsonl
    python benchmarks/ambiguous_band.py compare eval-out/band/correct eval-out/band/refined

`screen` searches each question of a set as the graph's first search does (classify's probe and
`retrieve` search the same query the same way), scores the sources with the shipped relevance
judge, and writes the questions whose best source falls in [low, high) as a questions JSONL for
`adaptive-rag eval run FILE --corpus CORPUS`: the searches the judge is least sure of among those
it finds `correct`. No model is called. The shipped judge's `correct` and `incorrect` cut-offs are
equal, so no search is `ambiguous`; the band here is the one a looser fit would make.

`compare` pairs the adaptive runs of two folders on the same questions (one run on the shipped
code, where the band is `correct`; one on a copy whose judge's `correct` cut-off is `high`, where
it is `ambiguous` and goes to `refine`): Acc, declines, and the bootstrap interval of the
difference. Decoding is deterministic, so the two folders differ only where the paths do.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from adaptive_rag.evaluation.aggregate import paired
from adaptive_rag.evaluation.data import read_jsonl
from adaptive_rag.evaluation.harness import collection_name, run_context
from adaptive_rag.evaluation.sets import load_eval_set
from adaptive_rag.knowledge.sources import retrieve
from adaptive_rag.nodes.grade_documents import judge_sources
from adaptive_rag.schema.context import Context
from adaptive_rag.services import Services


def screen(args: argparse.Namespace) -> int:
    """Write the questions whose first search's best source falls in the band."""
    data = load_eval_set(args.dataset)
    ctx = Context(**run_context(Path(args.run), data.name))
    services = Services(no_web=True)
    questions = list(data.questions)
    random.Random(args.seed).shuffle(questions)
    chosen: list[dict[str, Any]] = []
    scored = 0
    for q in questions[: args.limit]:
        if q.get("history"):
            continue  # a follow-up is searched as its rewrite, which needs the model
        docs = retrieve(services.retriever_for(ctx), q["question"], ctx.k)
        _, scores, _ = judge_sources(q["question"], docs, ctx, services)
        scored += 1
        if scores and args.low <= max(scores) < args.high:
            chosen.append(
                {
                    **q,
                    "is_impossible": q["impossible"],
                    "question_type": q["kind"],
                    "best": round(max(scores), 3),
                }
            )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in chosen))
    corpus = Path(args.run) / f"{collection_name(data.name)}.corpus.jsonl"
    print(f"{len(chosen)} of {scored} searched questions in [{args.low}, {args.high}): {out}")
    print(f"corpus: {corpus} (copy the run folder's kb/ beside the runs to skip indexing)")
    return 0


def compare(args: argparse.Namespace) -> int:
    """Pair the adaptive runs of the two folders and print the figures."""
    correct = [
        r for r in read_jsonl(Path(args.correct) / "results.jsonl") if r["config"] == "adaptive"
    ]
    refined = [
        r for r in read_jsonl(Path(args.refined) / "results.jsonl") if r["config"] == "adaptive"
    ]
    records = [
        *({**r, "config": "correct"} for r in correct),
        *({**r, "config": "ambiguous"} for r in refined),
    ]
    for row in paired(records, config="ambiguous", baseline="correct"):
        print(json.dumps(row))
    for name, runs in (("correct", correct), ("ambiguous", refined)):
        answerable = [r for r in runs if not r["impossible"]]
        unanswerable = [r for r in runs if r["impossible"]]
        refines = sum("refine" in (r.get("steps") or []) for r in runs)
        declined = sum(r["declined"] for r in unanswerable)
        print(
            f"{name}: n {len(runs)}, Acc {sum(r['acc'] for r in runs) / max(len(runs), 1):.3f},"
            f" answerable declined {sum(r['declined'] for r in answerable)}/{len(answerable)},"
            f" unanswerable declined {declined}/{len(unanswerable)},"
            f" refined {refines}, model calls {sum(r['model_calls'] for r in runs)}"
        )
    return 0


def main(argv: list[str]) -> int:
    """Parse the command line and run one of the two steps."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    steps = parser.add_subparsers(dest="step", required=True)
    s = steps.add_parser("screen")
    s.add_argument("dataset")
    s.add_argument("--run", required=True, help="an eval run folder of the set (its kb/)")
    s.add_argument("--limit", type=int, default=200)
    s.add_argument("--seed", type=int, default=13)
    s.add_argument("--low", type=float, required=True)
    s.add_argument("--high", type=float, required=True)
    s.add_argument("--out", required=True)
    c = steps.add_parser("compare")
    c.add_argument("correct")
    c.add_argument("refined")
    args = parser.parse_args(argv)
    return screen(args) if args.step == "screen" else compare(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
