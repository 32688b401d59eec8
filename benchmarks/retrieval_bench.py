"""Retrieval benchmark: recall of BM25, vector, hybrid, + graph, + facets; ingestion speed.

Latency at scale is scale_bench's; the graph's fusion variants are graph_bench's.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, Literal

from adaptive_rag.core.text import entities_of, terms_of
from adaptive_rag.evaluation.data import corpus_to_jsonl
from adaptive_rag.evaluation.metrics import ranking_scores
from adaptive_rag.evaluation.sets import EvalSet
from adaptive_rag.knowledge.chroma.store import ChromaStore
from adaptive_rag.knowledge.chunking import index_text
from adaptive_rag.knowledge.retriever import HybridRetriever
from graph_bench import fusion_rows
from langchain_core.documents import Document


def ranked_doc_ids(retriever: HybridRetriever, question: str) -> list[str]:
    """Return unique document ids in rank order (chunks of one document count once)."""
    docs = retriever.invoke(question)
    return list(dict.fromkeys(str(d.metadata.get("doc_id")) for d in docs))


MODES: list[tuple[str, Literal["keyword", "vector", "hybrid"], bool, bool]] = [
    ("keyword", "keyword", False, False),
    ("vector", "vector", False, False),
    ("hybrid", "hybrid", False, False),
    ("hybrid + graph", "hybrid", True, False),
    ("hybrid + graph + facets", "hybrid", True, True),
]
"""Label, search mode, whether the entity graph runs and whether a question's named values are
searched within (knowledge.facets); the last row is the default."""


def recall_table(
    sets: list[EvalSet], limit: int, embedding_model: str, fusions: bool = False, seed: int = 7
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Ingest each set's corpus into a fresh collection (once per corpus) and score each mode.

    `limit` questions are drawn per set (0: all), the same ones for every mode; a corpus two
    sets share is ingested once. Each row also says what entity extraction added to the ingest.
    With `fusions`, the graph's fusion variants are scored too (graph_bench).
    """
    rows: list[dict[str, Any]] = []
    fused: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        ingested: dict[tuple[str, ...], tuple[ChromaStore, float, float]] = {}
        for dataset in sets:
            corpus_key = tuple(sorted(str(d["doc_id"]) for d in dataset.corpus))
            if corpus_key not in ingested:
                ingested[corpus_key] = _ingest(dataset, Path(tmp), len(ingested), embedding_model)
            kb, ingest_s, entities_s = ingested[corpus_key]
            questions = list(dataset.questions)
            random.Random(seed).shuffle(questions)
            questions = questions[:limit] if limit else questions
            baseline: list[float] = []
            for label, mode, graph, facets in MODES:
                retriever = HybridRetriever(
                    kb=kb, k=30, fetch_k=30, mode=mode, graph=graph, facets=facets
                )
                per_q, latencies = [], []
                for q in questions:
                    t0 = time.perf_counter()
                    ranked = ranked_doc_ids(retriever, q["question"])
                    latencies.append(time.perf_counter() - t0)
                    per_q.append(ranking_scores(ranked, set(q["gold_doc_ids"])))
                row = {"dataset": dataset.name, "mode": label, "questions": len(per_q)}
                row.update({m: round(statistics.mean(s[m] for s in per_q), 3) for m in per_q[0]})
                mine = [s["allgold@4"] for s in per_q]
                baseline = baseline or (mine if label == "hybrid" else [])
                if baseline and label != "hybrid":  # paired: questions won / lost against hybrid
                    pairs = list(zip(mine, baseline, strict=True))
                    row["allgold@4_won_lost"] = f"{sum(a > b for a, b in pairs)}/" + str(
                        sum(a < b for a, b in pairs)
                    )
                row["median_ms"] = round(1000 * statistics.median(latencies), 1)
                row["chunks"] = kb.count()
                row["ingest_chunks_per_s"] = round(kb.count() / ingest_s, 1)
                added = entities_s / (ingest_s - entities_s)
                row["entities_added_to_ingest"] = f"{100 * added:.1f}%"
                rows.append(row)
                print(row, flush=True)
            if fusions:
                fused += fusion_rows(kb, dataset.name, questions)
    return rows, fused


def _ingest(
    dataset: EvalSet, folder: Path, number: int, embedding_model: str
) -> tuple[ChromaStore, float, float]:
    """Ingest a set's corpus; return the knowledge base, the ingest's seconds and extraction's.

    Extraction is timed again over the stored chunks, caches cleared: the work the ingest did.
    """
    path = corpus_to_jsonl(dataset.corpus, folder / f"corpus{number}.jsonl")
    kb = ChromaStore.open(str(folder / "kb"), f"corpus{number}", embedding_model, create=True)
    started = time.perf_counter()
    kb.ingest([str(path)], progress=True)
    ingest_s = time.perf_counter() - started
    texts = [
        index_text(Document(page_content=chunk.text, metadata=chunk.metadata))
        for chunk in kb.stored()
    ]
    terms_of.cache_clear()
    started = time.perf_counter()
    for text in texts:
        entities_of(text)
    return kb, ingest_s, time.perf_counter() - started
