"""The decline's figures over `eval run` folders: both error types, AUC, and gold-read declines.

    python benchmarks/goals.py eval-out/final/squad2 eval-out/final/multihop_rag

For each folder with adaptive and single-shot runs of the same questions: Acc, the share right
among the questions each answered, unanswerable questions declined and answerable ones declined;
the AUC of the answerability judge's probability (answerable above unanswerable), per set and
pooled over the sets that have unanswerable questions, with a bootstrap interval; and how many
answerable questions whose gold documents were all read were declined, and by what (the
answerability judge, self_check's rule, or the typed reason of an earlier decline). And
single-shot scored as the graph's own rule reads an answer: one that opens by saying its sources do
not give the answer (core.grounding.unsaid) counts as a decline, right on an unanswerable question
and wrong on another; the adaptive graph against that, paired.

    python benchmarks/goals.py --judge eval-out/judges/answerable.json eval-out/current/squad2_80

With --judge, each adaptive run the answerability judge decided is decided again by those
weights from the features it recorded (`answer_features`): the figures of another judge on the
same answers, without running the model. A run it now declines scores as a decline; one it now
answers that was declined is scored on the answer the decline replaced (`written`); a run
recorded without it is scored wrong and counted (for an answerable question, a lower bound).
Answered, an answer the check found unsupported would have been written again: the replay scores
the first one.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
from adaptive_rag.core.grounding import says_sources_lack
from adaptive_rag.core.judges import Logistic, decline_below
from adaptive_rag.evaluation.aggregate import paired
from adaptive_rag.evaluation.scoring import score

Row = dict[str, Any]


def say(line: str) -> None:
    """Print one line of the report."""
    sys.stdout.write(line + "\n")


def run_folder(text: str) -> Path:
    """Read an `eval run` folder argument, refused with a clear error if it holds no runs."""
    folder = Path(text)
    if not (folder / "results.jsonl").is_file():
        raise argparse.ArgumentTypeError(f"not an `eval run` folder (no results.jsonl): {folder}")
    return folder


def rows(folder: Path) -> list[Row]:
    """Read a run folder's records."""
    lines = (folder / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def decisions(row: Row) -> list[dict[str, Any]]:
    """Return a run's answer-or-decline judgments of self_check, in order."""
    return [
        j
        for j in row.get("judgments") or []
        if j.get("node") == "self_check" and j.get("verdict") in {"answer", "decline"}
    ]


def answerable_probability(row: Row) -> float | None:
    """Return the answerability judge's probability for a run, if it judged one."""
    first = next(iter(decisions(row)), None)
    value = first.get("score") if first else None
    return float(value) if value is not None else None


def declined_by(row: Row) -> str:
    """Return what declined a run: self_check's judge or rule, else the typed decline reason."""
    last = decisions(row)[-1:]
    if last and last[0].get("verdict") == "decline":
        return "the judge" if last[0].get("score") is not None else "self_check's rule"
    return str(row.get("decline_reason") or "unknown")


def rejudged(run: Row, judge: Logistic) -> Row:
    """Return an adaptive run as `judge` would have decided it, from its recorded features.

    Only a run with one decision of the fitted judge is replayed: after a regeneration the
    recorded features are the last answer's, not those the first decision read.
    """
    decided = decisions(run)
    if len(decided) != 1 or decided[0].get("score") is None or not run.get("answer_features"):
        return run
    p = judge.probability(run["answer_features"])
    declined = p < decline_below(judge)
    verdict = "decline" if declined else "answer"
    judgments = [
        {**j, "score": p, "verdict": verdict} if j is decided[0] else j for j in run["judgments"]
    ]
    new = {**run, "judgments": judgments, "declined": declined}
    if declined and not run["declined"]:
        return {**new, "acc": float(run["impossible"])}
    if run["declined"] and not declined:
        if run.get("written"):  # the answer the decline replaced, as it was written
            return {**new, **score({"answer": run["written"]}, run)}
        return {**new, "acc": 0.0, "unknown": True}  # recorded before `written` was
    return new


def auc(pairs: list[tuple[float, bool]]) -> float:
    """Return the probability that an answerable question scores above an unanswerable one."""
    pos = np.asarray([p for p, answerable in pairs if answerable])
    neg = np.asarray([p for p, answerable in pairs if not answerable])
    if not len(pos) or not len(neg):
        return float("nan")
    above = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(above / (len(pos) * len(neg)))


def auc_interval(pairs: list[tuple[float, bool]], resamples: int = 2000) -> tuple[float, float]:
    """Return a 95% bootstrap interval of the AUC (questions resampled)."""
    rng = np.random.default_rng(0)
    values = []
    for _ in range(resamples):
        drawn = [pairs[i] for i in rng.integers(0, len(pairs), len(pairs))]
        value = auc(drawn)
        if value == value:
            values.append(value)
    low, high = np.percentile(values, [2.5, 97.5])
    return float(low), float(high)


def unsaid(row: Row) -> bool:
    """Whether a run answered, but only to say that its sources do not give the answer."""
    return not row["declined"] and says_sources_lack(row.get("answer") or "")


def as_the_rule_reads(row: Row) -> float:
    """Return a run's Acc with an answer that says the sources lack it read as a decline."""
    if unsaid(row):
        return 1.0 if row["impossible"] else 0.0
    return float(row["acc"])


def paired_with_the_rule(runs: list[Row]) -> None:
    """Print single-shot scored as the rule reads it, and the adaptive graph against that."""
    single = [r for r in runs if r["config"] == "single"]
    read = [as_the_rule_reads(r) for r in single]
    count = sum(unsaid(r) for r in single)
    rescored = [r for r in runs if r["config"] != "single"]
    rescored += [{**r, "acc": value} for value, r in zip(read, single, strict=True)]
    for row in paired(rescored):
        say(
            f"  single with its {count} answers that only say the sources lack it read as"
            f" declines: Acc {row['acc baseline']:.3f}; adaptive {row['acc']:.3f}, wins"
            f" {row['wins']} / losses {row['losses']}, {row['95% interval']}"
        )


def report(folders: list[Path], judge: Logistic | None = None) -> None:
    """Print each folder's figures, then the pooled ones (decided again by `judge`, if given)."""
    pooled: list[tuple[float, bool]] = []
    gold_read = 0
    declined_gold_read: Counter[str] = Counter()
    for folder in folders:
        runs = rows(folder)
        if judge is not None:
            runs = [rejudged(r, judge) if r["config"] == "adaptive" else r for r in runs]
            unknown = [r for r in runs if r.get("unknown")]
            say(
                f"{folder}: decided again by {judge.name} (declines below"
                f" {decline_below(judge):.4f}); {len(unknown)} declined runs now"
                f" answered, scored wrong ({sum(not r['impossible'] for r in unknown)} answerable)"
            )
        adaptive = {r["id"]: r for r in runs if r["config"] == "adaptive"}
        single = {r["id"]: r for r in runs if r["config"] == "single"}
        ids = sorted(set(adaptive) & set(single))
        say(f"{folder}: {len(ids)} questions")
        answerable = [i for i in ids if not adaptive[i]["impossible"]]
        impossible = [i for i in ids if adaptive[i]["impossible"]]
        for name, by_id in (("adaptive", adaptive), ("single", single)):
            answered = [i for i in ids if not by_id[i]["declined"]]
            right = np.mean([by_id[i]["acc"] for i in answered]) if answered else float("nan")
            declined = sum(by_id[i]["declined"] for i in impossible)
            wrongly = sum(by_id[i]["declined"] for i in answerable)
            say(
                f"  {name}: Acc {np.mean([by_id[i]['acc'] for i in ids]):.3f}; answered"
                f" {len(answered)}, right among them {right:.3f}; unanswerable declined"
                f" {declined}/{len(impossible)}; answerable declined {wrongly}/{len(answerable)}"
            )
        paired_with_the_rule(runs)
        for i in answerable:
            gold = set(adaptive[i]["gold_doc_ids"])
            if gold and gold <= set(adaptive[i]["used_doc_ids"]):
                gold_read += 1
                if adaptive[i]["declined"]:
                    declined_gold_read[declined_by(adaptive[i])] += 1
        scored = [(answerable_probability(adaptive[i]), i not in impossible) for i in ids]
        pairs = [(p, y) for p, y in scored if p is not None]
        say(f"  judged by the answerability judge: {len(pairs)} of {len(ids)}")
        if impossible:
            say(f"  AUC {auc(pairs):.3f}")
            pooled += pairs
    if pooled:
        low, high = auc_interval(pooled)
        say(
            f"pooled AUC {auc(pooled):.3f} [{low:.3f}, {high:.3f}] over {len(pooled)} questions"
            f" ({sum(y for _, y in pooled)} answerable)"
        )
    by = ", ".join(f"{n} by {what}" for what, n in declined_gold_read.most_common())
    say(
        f"answerable, every gold document read: {gold_read}, declined"
        f" {declined_gold_read.total()}" + (f" ({by})" if by else "")
    )


def main() -> None:
    """Parse the folders and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=run_folder, help="`eval run` output folders")
    parser.add_argument(
        "--judge", type=Path, help="answerability weights (JSON) to decide the runs again by"
    )
    args = parser.parse_args()
    judge = Logistic.from_json(json.loads(args.judge.read_text())) if args.judge else None
    report(args.folders, judge)


if __name__ == "__main__":
    main()
