"""What single-shot answers when its sources hold every gold document: the most retrieval can give.

    python experiments/oracle_reading.py eval-out/infcomp/multihop_rag --out eval-out/gold_read

Reads an `eval run` folder with single-shot results (and its index, `kb/`). Each question whose
single-shot sources lacked a gold document is answered again by single-shot, with the best chunk of
each missing gold document in place of the lowest-ranked chunks of other documents (the same
number of chunks, more only when the gold documents alone are more). The other questions' answers
are single-shot's own: the same sources and prompt, decoded deterministically, give the same
answer. It prints Acc of single-shot, of this "gold-read" reading and of the folder's adaptive
runs, the gold-read reading against single-shot (wins, losses, bootstrap interval), by kind.
What it answers again is appended to OUT/results.jsonl (an interrupted run resumes).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from run_folders import Row, rows, run_folder

CONFIG = "gold_read"
"""The configuration name of the answers this script writes."""


class GoldRead(BaseRetriever):
    """A retriever that puts each gold document's best chunk among the search's first k."""

    inner: BaseRetriever
    gold: list[str] = []
    """The current question's gold document ids (set before each run)."""

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        found = self.inner.invoke(query)
        present = {str(d.metadata.get("doc_id", "")) for d in found}
        for doc_id in (g for g in self.gold if g not in present):
            within = self.inner.model_copy(update={"metadata_filter": {"doc_id": doc_id}})
            best = within.invoke(query)[:1]
            if not best:
                continue
            others = [i for i, d in enumerate(found) if d.metadata.get("doc_id") not in self.gold]
            if others:
                found[others[-1]] = best[0]
            else:
                found.append(best[0])
        return found


def missing_gold(run: Row) -> bool:
    """Whether a single-shot run's sources lacked one of the question's gold documents."""
    return not set(run["gold_doc_ids"]) <= set(run["used_doc_ids"])


def read_again(
    folder: Path, out: Path, services: Any = None, progress: bool = True
) -> list[dict[str, Any]]:
    """Answer the folder's single-shot questions that lacked a gold document with all of them."""
    from adaptive_rag.evaluation.baselines import build_single_shot
    from adaptive_rag.evaluation.harness import forget_prompt_cache, run_context, run_one
    from adaptive_rag.schema.context import Context
    from adaptive_rag.services import Services, default_retriever
    from langgraph.checkpoint.memory import InMemorySaver

    settings = json.loads((folder / "settings.json").read_text())
    if len(settings) != 1:
        raise SystemExit(f"{folder} holds several data sets ({', '.join(settings)}); give one")
    dataset, recorded = next(iter(settings.items()))
    defaults = asdict(Context())  # the folder records every setting; the run overrode these
    overrides = {k: v for k, v in recorded.items() if k in defaults and v != defaults[k]}
    ctx = Context(**run_context(folder, dataset, overrides))
    retriever = GoldRead(inner=default_retriever(ctx))
    svc = services or Services(no_web=True)
    svc.retriever = retriever
    graph = build_single_shot(svc, InMemorySaver())
    results = out / "results.jsonl"
    out.mkdir(parents=True, exist_ok=True)
    done = {r["id"] for r in rows(out)} if results.exists() else set()
    todo = [r for r in rows(folder) if r["config"] == "single" and missing_gold(r)]
    with results.open("a", encoding="utf-8") as sink:
        for i, run in enumerate(todo, start=1):
            if run["id"] in done:
                continue
            retriever.gold = list(run["gold_doc_ids"])
            forget_prompt_cache(svc, ctx)
            record = run_one(graph, ctx, dataset, CONFIG, run)
            sink.write(json.dumps(record, ensure_ascii=False) + "\n")
            sink.flush()
            if progress:
                sys.stderr.write(f"read again {i}/{len(todo)}: {run['id']} acc {record['acc']}\n")
    return rows(out)


def summary(folder: Path, out: Path) -> list[dict[str, Any]]:
    """Return the paired comparisons of the gold-read reading and adaptive against single-shot."""
    from adaptive_rag.evaluation.aggregate import paired

    runs = rows(folder)
    again = {r["id"]: r for r in rows(out)}
    gold_read = [
        again.get(r["id"]) or {**r, "config": CONFIG}
        for r in runs
        if r["config"] == "single" and (r["id"] in again or not missing_gold(r))
    ]
    records = [*runs, *gold_read]
    kinds = sorted({r["kind"] for r in gold_read})
    table = []
    for kind in ("all", *kinds):
        chosen = [r for r in records if kind in ("all", r["kind"])]
        for config in (CONFIG, "adaptive"):
            for row in paired(chosen, config, "single"):
                table.append({"kind": kind, **row})
    return table


def main(argv: list[str] | None = None) -> int:
    """Answer again where gold documents were missing, then print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=run_folder, help="an `eval run` folder with single-shot runs")
    parser.add_argument("--out", type=Path, required=True, help="folder for the answers again")
    args = parser.parse_args(argv)
    read_again(args.run, args.out)
    for row in summary(args.run, args.out):
        sys.stdout.write(
            f"{row['kind']}: {row['pair']} over {row['n']}: {row['acc']:.3f} against"
            f" {row['acc baseline']:.3f}, {row['wins']} / {row['losses']},"
            f" {row['difference']:+.3f} {row['95% interval']}, {row['verdict']}\n"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
