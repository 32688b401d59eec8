"""Whether the focus rule of yes/no questions would catch made-up answers to every question.

    python experiments/focus_every_question.py eval-out/handbook/results.jsonl [more runs...]

A yes or a no stands only when its cited sources hold the question's focus (core.grounding.focus).
An answer to another question can invent too ("工作服一般在 7 个工作日内发一次[1]" to a question
on work clothes, cited to a page on repairs), so the rule might hold for every question. This
replays it, with no model call, on the answers an `eval run` recorded: for each answer the
adaptive graph returned with citations to a question that is not a yes/no one, it reads the
question's focus against the cited sources and counts, per kind of question, the answers the
rule would have declined and how many of them were right.

Two readings are printed: the rule as yes/no questions have it (the focus held within its
slack), and a lenient one (at least one focus term held).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from adaptive_rag.core.grounding import focus_of
from adaptive_rag.core.question import asks_yes_no
from adaptive_rag.core.text import cited_numbers


def replay(path: Path) -> dict[str, dict[str, int]]:
    """Return, per kind of question, the answers read and those each reading would decline."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["config"] != "adaptive" or row["declined"] or row.get("route") == "general":
            continue
        read = row.get("sources_read") or []
        cited = [n for n in dict.fromkeys(cited_numbers(row["answer"])) if 1 <= n <= len(read)]
        if not cited or asks_yes_no(row["question"]):
            continue
        focus = focus_of(row["question"], [read[n - 1] for n in cited])
        kind = row["kind"] + (" (unanswerable)" if row.get("impossible") else "")
        seen = counts[kind]
        seen["answers"] += 1
        seen["right"] += int(bool(row["acc"]))
        if not focus.known:
            seen["focus unknown"] += 1
            continue
        for reading, declines in (
            ("within slack", not focus.held),
            ("none held", len(focus.missing) == len(focus.terms)),
        ):
            if declines:
                seen[f"declined, {reading}"] += 1
                seen[f"declined right, {reading}"] += int(bool(row["acc"]))
    return counts


def main() -> None:
    """Print, per run and kind of question, what each reading of the rule would decline."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="results.jsonl of `eval run` folders")
    for path in parser.parse_args().runs:
        print(f"## {path}")
        for kind, seen in sorted(replay(path).items()):
            print(f"- {kind}: " + ", ".join(f"{k} {v}" for k, v in seen.items()))


if __name__ == "__main__":
    main()
