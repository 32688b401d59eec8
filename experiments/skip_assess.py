"""What `assess`'s odds give and cost, over `eval run` folders of adaptive, noassess and single.

    python experiments/skip_assess.py eval-out/noassess/multihop_rag eval-out/noassess/squad2

`noassess` is the graph with an `assess` that asks no model. A third row composes the two
configurations' runs of one interleaved run into "assess skipped where the search is read whole"
(grade_documents found several likely sources): on those questions the noassess run, on the
others the adaptive one. Decoding is deterministic and the two graphs agree up to `assess`, so
the composition is what that rule would have done (short of a rewrite whose second search is read
whole where the first was not). For each: Acc, declines by kind, wins / losses against single-shot,
p50 latency over single-shot's, and a bootstrap 95% interval of the Acc difference.

The adaptive graph skips `assess` where the search is read whole (graph.edges.after_grading), so
on its runs the composed row is the adaptive row; the composition is for runs of a graph that
assessed every search, as recorded in docs/decisions.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from adaptive_rag.evaluation.aggregate import paired
from adaptive_rag.nodekit.grading import READ_WHOLE
from run_folders import Row, rows, run_folder


def read_whole(run: Row) -> bool:
    """Whether grade_documents read the run's search whole."""
    return any(
        j.get("node") == "grade_documents" and READ_WHOLE in (j.get("detail") or "")
        for j in run.get("judgments") or []
    )


def line(name: str, runs: list[Row], single: list[Row], single_p50: float) -> str:
    """Return one configuration's figures against single-shot on the same questions."""
    unanswerable = [r for r in runs if r["impossible"]]
    answerable = [r for r in runs if not r["impossible"]]
    (pair,) = paired([*({**r, "config": name} for r in runs), *single], config=name)
    p50 = statistics.median(float(r["seconds"]) for r in runs) / single_p50
    return (
        f"  {name}: Acc {pair['acc']:.3f}; unanswerable declined"
        f" {sum(r['declined'] for r in unanswerable)}/{len(unanswerable)}, answerable declined"
        f" {sum(r['declined'] for r in answerable)}/{len(answerable)}; against single-shot"
        f" {pair['wins']} / {pair['losses']}; p50 {p50:.2f}× single-shot;"
        f" difference {pair['95% interval']}"
    )


def report(folder: Path) -> list[str]:
    """Return the folder's lines: adaptive, noassess and the composed rule."""
    by_config: dict[str, dict[str, Row]] = {}
    for r in rows(folder):
        by_config.setdefault(r["config"], {})[r["id"]] = r
    needed = ("adaptive", "noassess", "single")
    if any(c not in by_config for c in needed):
        return [f"{folder}: needs runs of {', '.join(needed)}"]
    ids = sorted(set.intersection(*(set(by_config[c]) for c in needed)))
    adaptive, noassess = by_config["adaptive"], by_config["noassess"]
    single = [by_config["single"][i] for i in ids]
    single_p50 = statistics.median(float(r["seconds"]) for r in single)
    whole = [i for i in ids if read_whole(adaptive[i])]
    composed = [noassess[i] if i in whole else adaptive[i] for i in ids]
    return [
        f"{folder}: {len(ids)} questions, {len(whole)} searches read whole",
        line("adaptive", [adaptive[i] for i in ids], single, single_p50),
        line("noassess", [noassess[i] for i in ids], single, single_p50),
        line("assess skipped where read whole", composed, single, single_p50),
    ]


def main(argv: list[str] | None = None) -> int:
    """Print each folder's lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=run_folder, help="`eval run` output folders")
    for folder in parser.parse_args(argv).runs:
        sys.stdout.write("\n".join(report(folder)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
