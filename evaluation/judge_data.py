"""Labelled material for the fitted judges: the chunks retrieval returns, gold or not.

The retrieval evaluator is fitted on what search actually hands the agent (gold documents
against the non-gold ones retrieved beside them), never on random paragraphs. One JSONL row per
question: its text, gold documents, and each returned source with its search signals.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from adaptive_rag.evaluation.data import read_jsonl
from adaptive_rag.evaluation.harness import eval_knowledge_base
from adaptive_rag.evaluation.sets import EvalSet, load_eval_set, pick
from adaptive_rag.knowledge.sources import retrieve
from adaptive_rag.schema.context import Context
from adaptive_rag.services import Services

SIGNALS = (
    "rank",
    "score",
    "agreement",
    "vector_rank",
    "vector_score",
    "keyword_rank",
    "keyword_score",
    "graph_rank",
    "graph_score",
    "graph_entities",
    "facet_rank",
    "facet_score",
    "named_value",
    "chunks",
)
"""The search signals a returned source carries (knowledge.retriever), kept per row."""


def source_row(doc: Any, gold: set[str]) -> dict[str, Any]:
    """Describe one returned source: its document, text, search signals and gold label."""
    meta = doc.metadata or {}
    doc_id = str(meta.get("doc_id", ""))
    return {
        "doc_id": doc_id,
        "text": doc.page_content,
        "gold": doc_id in gold,
        **{name: meta[name] for name in SIGNALS if name in meta},
    }


def collect(
    data: EvalSet, out_dir: Path, depth: int, embedding_model: str = "auto", progress: bool = True
) -> Path:
    """Retrieve `depth` sources for every question of a set; rows already written are kept."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{data.name}.chunks.jsonl"
    done = {r["id"] for r in read_jsonl(path)} if path.exists() else set()
    kb = eval_knowledge_base(data, out_dir, embedding_model, progress)
    ctx = Context(
        kb_path=str(out_dir / "kb"), collection=kb.name, k=depth, embedding_model=embedding_model
    )
    retriever = Services(no_web=True).retriever_for(ctx)
    with path.open("a", encoding="utf-8") as sink:
        for q in data.questions:
            if q["id"] in done:
                continue
            gold = set(q["gold_doc_ids"])
            docs = retrieve(retriever, q["question"], depth)
            row = {
                "dataset": data.name,
                "id": q["id"],
                "question": q["question"],
                "impossible": q["impossible"],
                "kind": q["kind"],
                "gold_doc_ids": q["gold_doc_ids"],
                "sources": [source_row(d, gold) for d in docs],
            }
            sink.write(json.dumps(row, ensure_ascii=False) + "\n")
    return path


EVAL_SEED = 13
"""The seed `eval run` samples its questions with (evaluation.harness.run_eval)."""


def held_back_ids(data: EvalSet, limit: int) -> set[str]:
    """Return the set's evaluation sample (`eval run --limit N`), which no judge is fitted on."""
    if limit <= 0:
        return set()
    return {f"{data.name}:{q['id']}" for q in pick(data.questions, limit, True, EVAL_SEED)}


def collect_sets(
    names: list[str], out_dir: Path, depth: int, embedding_model: str = "auto"
) -> list[Path]:
    """Collect every named set (a shared set's name, or questions.jsonl with a corpus)."""
    return [collect(load_eval_set(name), out_dir, depth, embedding_model) for name in names]
