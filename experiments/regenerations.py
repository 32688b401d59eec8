"""What writing the answer again after a failed check changed, over `eval run` folders.

    python experiments/regenerations.py eval-out/current/multihop_rag_80 eval-out/current/squad2_80

An adaptive run wrote again when its answer failed the grounding check (`regenerations`). Where
it read the same sources in the same order as single-shot on that question, its first answer is
single-shot's (the same prompt, decoded deterministically), so single-shot's score is what
stopping after the first answer would have scored. For each folder: the runs written again, how
many of the comparable ones ended better or worse than that first answer, and the p50 latency
against single-shot's, as measured and with the later writes' share of `generate`'s time taken
out (an estimate: the later writes reuse the sources' prefix, so each costs less than the first).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from run_folders import Row, rows, run_folder


def without_later_writes(run: Row) -> float:
    """Return the run's seconds less its later writes' estimated share of `generate`'s time."""
    later = int(run.get("regenerations") or 0)
    if not later:
        return float(run["seconds"])
    writes = max(int(run.get("generations") or 0), later + 1)
    generate = float(run["node_seconds"].get("generate", 0.0))
    return float(run["seconds"]) - generate * later / writes


def summary(folder: Path) -> dict[str, float]:
    """Return the folder's counts and latency ratios."""
    records = rows(folder)
    single = {r["id"]: r for r in records if r["config"] == "single"}
    adaptive = [r for r in records if r["config"] == "adaptive" and r["id"] in single]
    again = [r for r in adaptive if r.get("regenerations")]
    same = [r for r in again if r["used_doc_ids"] == single[r["id"]]["used_doc_ids"]]
    single_p50 = statistics.median(float(r["seconds"]) for r in single.values())
    return {
        "runs": len(adaptive),
        "again": len(again),
        "comparable": len(same),
        "better": sum(r["acc"] > single[r["id"]]["acc"] for r in same),
        "worse": sum(r["acc"] < single[r["id"]]["acc"] for r in same),
        "p50": statistics.median(float(r["seconds"]) for r in adaptive) / single_p50,
        "p50_once": statistics.median(without_later_writes(r) for r in adaptive) / single_p50,
    }


def main(argv: list[str] | None = None) -> int:
    """Print one line per folder."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=run_folder, help="`eval run` output folders")
    for folder in parser.parse_args(argv).runs:
        s = summary(folder)
        sys.stdout.write(
            f"{folder}: written again {s['again']} of {s['runs']}; over the same sources as"
            f" single-shot {s['comparable']}, better than the first answer {s['better']}, worse"
            f" {s['worse']}; p50 {s['p50']:.2f}× single-shot, about {s['p50_once']:.2f}× without"
            " the later writes\n"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
