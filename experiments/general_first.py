"""Would asking the model first pay? General questions answered before any search, simulated.

    python experiments/general_first.py eval-out/mix3 traffic-mix \
        --out eval-out/general_first/mix.jsonl

The policy it measures: a question classify routes `simple` (not by a rule) whose probe search
finds nothing rare in its words that keeps it from general knowledge
(`core.judges.general.rare_names`, the guard `answer_general` uses) is asked of the model with
no document first, as `answer_general` asks it; when the fitted general judge finds the answer
more likely right than wrong it is returned, labelled, and nothing is searched; otherwise the
question runs as today. For each such question of a run folder's `adaptive` rows it asks the
model once (answers kept in `--out`: a rerun resumes), then reports
per kind the Acc the run had and the Acc the policy would have (the direct answer where taken,
the run's answer elsewhere), the questions whose outcome changes, and the median time (the direct
call where taken; the run's time plus the direct call where not).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from adaptive_rag.core.judges import features, rare_names
from adaptive_rag.core.text import language_of
from adaptive_rag.evaluation.data import read_jsonl
from adaptive_rag.evaluation.harness import run_context
from adaptive_rag.evaluation.metrics import contains

ANSWER_AT = 0.5
"""The judge's probability from which the direct answer is returned, as in answer_general."""


def eligible(row: dict[str, Any]) -> bool:
    """Whether the policy would ask the model first: a first question classify routed simple."""
    return not row.get("history") and row["route"] == "simple" and row["route_method"] != "rule"


def collect(run: Path, dataset: str, out: Path) -> None:
    """Ask the model each eligible question with no documents; keep answer, p and rightness."""
    from adaptive_rag.knowledge.sources import retrieve
    from adaptive_rag.prompts import answer_general as prompts
    from adaptive_rag.providers.calls import call_model
    from adaptive_rag.schema.context import Context
    from adaptive_rag.services import Services

    rows = [r for r in read_jsonl(run / "results.jsonl") if r["config"] == "adaptive"]
    done = {r["id"] for r in read_jsonl(out)} if out.exists() else set()
    ctx = Context(**run_context(run, dataset))
    services = Services(no_web=True)
    judge, _ = services.general_judge_for(ctx)
    if judge is None:
        raise SystemExit("no general judge for this model: the policy has nothing to decide with")
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a", encoding="utf-8") as sink:
        for r in rows:
            if r["id"] in done or not eligible(r):
                continue
            question, language = r["question"], language_of(r["question"])
            docs = retrieve(services.retriever_for(ctx), question, ctx.k)
            texts = [f"{d.metadata.get('title') or ''}\n{d.page_content}" for d in docs]
            rare = rare_names(question, texts, language)
            kept_from = [*rare.held, *rare.proper]
            record: dict[str, Any] = {"id": r["id"], "rare": kept_from}
            if not rare.keeps_from_general:
                started = time.perf_counter()
                reply = call_model(
                    services.chat(ctx),
                    prompts.messages(question, language),
                    stream=True,
                    logprobs=True,
                )
                answer, zh = reply.text, language == "zh"
                p = judge.probability(features(question, answer, reply.logprob, zh))
                record.update(
                    seconds=round(time.perf_counter() - started, 2),
                    answer=answer,
                    p=round(p, 3),
                    right=0.0 if r["impossible"] else contains(answer, r["answers"]),
                )
            sink.write(json.dumps(record, ensure_ascii=False) + "\n")
            sink.flush()
            print(f"{r['id']}: {'rare' if kept_from else record['p']}", flush=True)


def report(run: Path, out: Path) -> None:
    """Print per kind the run's Acc and the policy's, the changed questions and the median time."""
    asked = {r["id"]: r for r in read_jsonl(out)}
    kinds: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0, 0.0, 0.0])
    before, after, changed = [], [], []
    for r in read_jsonl(run / "results.jsonl"):
        if r["config"] != "adaptive":
            continue
        tally = kinds[r["kind"]]
        tally[0] += 1
        tally[3] += r["acc"]
        direct = asked.get(r["id"]) if eligible(r) else None
        taken = direct is not None and "p" in direct and direct["p"] >= ANSWER_AT
        tally[1] += direct is not None and "p" in direct
        tally[2] += taken
        acc = direct["right"] if taken and direct else r["acc"]
        tally[4] += acc
        before.append(r["seconds"])
        extra = direct.get("seconds", 0.0) if direct else 0.0
        after.append(extra if taken else r["seconds"] + extra)
        if taken and acc != r["acc"] and direct:
            changed.append(
                f"  {r['kind']}: {r['question'][:60]!r} {r['acc']:.0f} -> {acc:.0f}"
                f" (p {direct['p']:.2f})"
            )
    print("kind              n  asked  taken  Acc run  Acc policy")
    for kind, (n, ask, took, a, b) in sorted(kinds.items()):
        print(f"{kind:16} {n:3} {ask:6} {took:6} {a / n:8.3f} {b / n:11.3f}")
    n = sum(t[0] for t in kinds.values())
    run_acc, policy_acc = (sum(t[i] for t in kinds.values()) / n for i in (3, 4))
    print(f"{'all':16} {n:3} {'':6} {'':6} {run_acc:8.3f} {policy_acc:11.3f}")
    medians = statistics.median(before), statistics.median(after)
    print(f"median seconds: run {medians[0]:.1f}, policy {medians[1]:.1f}")
    print("changed:", *changed, sep="\n")


def main(argv: list[str]) -> None:
    """Collect what is missing, then report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="a run folder of `adaptive-rag eval run`")
    parser.add_argument("dataset", help="its data set's name, as the run folder's kb/ holds it")
    parser.add_argument("--out", type=Path, required=True, help="the direct answers (resumed)")
    parser.add_argument("--report-only", action="store_true", help="ask the model nothing")
    args = parser.parse_args(argv)
    if not args.report_only:
        collect(args.run, args.dataset, args.out)
    report(args.run, args.out)


if __name__ == "__main__":
    main(sys.argv[1:])
