"""Which recorded answers to how much / how many / how long state no amount, and so fail the check.

    python experiments/unmeasured.py eval-out/hb/results.jsonl [more runs...]

A question that asks for an amount ("How loud is the K2?", "产假有多久？") answered with no number
and no amount in words ("free", "a week", "半年") puts a quality in the figure's place
(core.grounding.amount); self_check then fails the answer, the loop writes it again, and an owned
question still answered so is declined. This replays the rule, with no model call, on the answers
an `eval run` recorded (every configuration's written answer, before any decline) and prints, per
run, the answers it fails: right and wrong, answerable and not, and whether the run had declined
them. A right answer failed is a cost; an unanswerable or wrong one a catch.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from adaptive_rag.core.grounding import unmeasured
from adaptive_rag.core.question import asks_amount
from run_folders import outcome, print_replays


def replay(path: Path) -> tuple[dict[str, int], list[str]]:
    """Return the failed answers counted by outcome (and every amount answer), and a line each."""
    counts: Counter[str] = Counter()
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        answer = row.get("written") or row["answer"]
        if not answer or not asks_amount(row["question"]):
            continue
        label, declined = outcome(row)
        counts[f"asks an amount, {label}"] += 1
        if not unmeasured(row["question"], answer):
            continue
        counts[f"failed: {label}, {declined}"] += 1
        said = f"{row['question']!r} -> {answer[:90]!r}"
        lines.append(f"  {row['config']} {label}, {declined}: {said}")
    return dict(sorted(counts.items())), lines


def main() -> None:
    """Print, per run, the answers the rule fails."""
    print_replays(__doc__.split("\n")[0], replay)


if __name__ == "__main__":
    main()
