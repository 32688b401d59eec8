"""Which recorded yes answers to owned questions no one cited sentence states, and so are declined.

    python experiments/spread_yes.py eval-out/hb/results.jsonl [more runs...]

A yes to a yes/no question about the knowledge base's own things passes the focus rule when its
cited sources hold the question's focus anywhere (core.grounding.focus); it is stated only when
one of their sentences holds two thirds of it, as a no is (core.grounding.stated_yes). "Are
unused vacation days paid out when I leave the company?" answered yes over a leave policy that
names unused days, payment and leaving in three sentences on other things is not. This replays
the rule, with no model call, on the answers an `eval run` recorded (the adaptive graph's written
answer, before any decline) and prints, per run, the answers it declines: right and wrong,
answerable and not, and whether the run had declined them.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from adaptive_rag.core.grounding import focus_of, stated_yes
from adaptive_rag.core.text import cited_sources
from run_folders import outcome, print_replays, yes_no_answers


def replay(path: Path) -> tuple[dict[str, int], list[str]]:
    """Return the yes answers not stated in one sentence, counted by outcome, and a line each."""
    counts: Counter[str] = Counter()
    lines = []
    for row, answer, read in yes_no_answers(path):
        if not (row.get("features") or {}).get("owned"):
            continue
        cited = cited_sources(answer, read) or read
        focus = focus_of(row["question"], cited)
        if not focus.held or stated_yes(row["question"], answer, cited, focus):
            continue
        label, declined = outcome(row)
        counts[f"{label}, {declined}"] += 1
        lines.append(f"  {label}, {declined}: {row['question']!r} -> {answer[:80]!r}")
    return dict(sorted(counts.items())), lines


def main() -> None:
    """Print, per run, the yes answers the rule declines."""
    print_replays(__doc__.split("\n")[0], replay)


if __name__ == "__main__":
    main()
