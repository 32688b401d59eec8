"""Which recorded "no" answers a cited sentence states, and so skip the answerability judge.

    python experiments/stated_no.py eval-out/hb/results.jsonl [more runs...]

A no to a yes/no question is stated by its source when the answer cites it and one of its
sentences holds two thirds of the question's focus and negates (core.grounding.stated);
self_check then does not put it to the answerability judge, which reads a rule that forbids as
sources that do not answer. This replays the rule, with no model call, on the answers an `eval
run` recorded (the adaptive graph's written answer, before any decline) and prints, per run, the
answers it reads as stated, right and wrong, answerable and not, and whether the run had declined
them.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from adaptive_rag.core.grounding import focus_of, stated_no
from adaptive_rag.core.text import cited_sources
from run_folders import outcome, print_replays, yes_no_answers


def replay(path: Path) -> tuple[dict[str, int], list[str]]:
    """Return the stated answers counted by outcome, and a line for each."""
    counts: Counter[str] = Counter()
    lines = []
    for row, answer, read in yes_no_answers(path):
        cited = cited_sources(answer, read)
        focus = focus_of(row["question"], cited or read)
        sentence = stated_no(row["question"], answer, cited, focus)
        if not sentence:
            continue
        label, declined = outcome(row)
        counts[f"{label}, {declined}"] += 1
        lines.append(f"  {label}, {declined}: {row['question']!r} <- {sentence!r}")
    return dict(sorted(counts.items())), lines


def main() -> None:
    """Print, per run, the answers the rule reads as stated."""
    print_replays(__doc__.split("\n")[0], replay)


if __name__ == "__main__":
    main()
