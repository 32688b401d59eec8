"""Whether declining answers bound to a source on another thing loses right answers.

    python experiments/unnamed_subject.py eval-out/hb/results.jsonl [more runs...]

"What is Marleen Vos's email address?" was answered with the help desk's address, cited to the
help desk's page, while the page naming her was shown beside it: the fact of one thing bound to a
source on another. self_check declines such an answer (core.grounding.unnamed_subject): the
question asks a property of one named thing, the sources the answer cites lack the name, another
source shown holds it; not on the complex route or for a synthesis. This replays the rule, with
no model call, on the answers an `eval run` recorded and prints, per run, the answers with
citations it reads, right and wrong, and those it would decline.
"""

from __future__ import annotations

import json
from pathlib import Path

from adaptive_rag.core.grounding import unnamed_subject
from adaptive_rag.core.text import cited_sources
from run_folders import print_replays


def replay(path: Path) -> tuple[dict[str, int], list[str]]:
    """Return the answers read and declined, right and wrong, and a line per declined answer."""
    counts = {"right": 0, "wrong": 0, "right declined": 0, "wrong declined": 0}
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        features = row.get("features") or {}
        if row["config"] != "adaptive" or row["declined"] or features.get("direct"):
            continue
        if features.get("complex") or features.get("synthesis"):
            continue
        read = row.get("sources_read") or []
        cited = cited_sources(row["answer"], read)
        if not cited:
            continue
        label = "right" if row["acc"] else "wrong"
        counts[label] += 1
        name = unnamed_subject(row["question"], cited, read)
        if name:
            counts[f"{label} declined"] += 1
            lines.append(f"  {label}: {row['question']!r} (the cited sources lack {name!r})")
    return counts, lines


def main() -> None:
    """Print, per run, what the rule would decline."""
    print_replays(__doc__.split("\n")[0], replay)


if __name__ == "__main__":
    main()
