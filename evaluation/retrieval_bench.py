"""Retrieval benchmark: BM25 vs vector vs hybrid recall, ingestion speed, latency at scale."""

from __future__ import annotations

import random
import resource
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import numpy as np
from adaptive_rag.core.access import access_metadata
from adaptive_rag.evaluation.data import corpus_to_jsonl
from adaptive_rag.evaluation.metrics import ranking_scores
from adaptive_rag.evaluation.sets import retrieval_sets
from adaptive_rag.knowledge.retriever import HybridRetriever
from adaptive_rag.knowledge.store import KnowledgeBase
from langchain_core.embeddings import Embeddings

MODES: tuple[Literal["keyword", "vector", "hybrid"], ...] = ("keyword", "vector", "hybrid")


def ranked_doc_ids(retriever: HybridRetriever, question: str) -> list[str]:
    """Return unique document ids in rank order (chunks of one document count once)."""
    docs = retriever.invoke(question)
    return list(dict.fromkeys(str(d.metadata.get("doc_id")) for d in docs))


def recall_table(limit: int, embedding_model: str, seed: int = 7) -> list[dict[str, Any]]:
    """Ingest each shared corpus into a fresh collection and score the three channels."""
    rows = []
    for dataset in retrieval_sets():
        with tempfile.TemporaryDirectory() as tmp:
            path = corpus_to_jsonl(dataset.corpus, Path(tmp) / f"{dataset.name}.jsonl")
            kb = KnowledgeBase.open(
                tmp + "/kb", dataset.name.replace("_", "-"), embedding_model, create=True
            )
            started = time.perf_counter()
            kb.ingest([str(path)], progress=True)
            ingest_s = time.perf_counter() - started
            questions = list(dataset.questions)
            random.Random(seed).shuffle(questions)
            questions = questions[:limit]
            for mode in MODES:
                retriever = HybridRetriever(kb=kb, k=30, fetch_k=30, mode=mode)
                per_q, latencies = [], []
                for q in questions:
                    t0 = time.perf_counter()
                    ranked = ranked_doc_ids(retriever, q["question"])
                    latencies.append(time.perf_counter() - t0)
                    per_q.append(ranking_scores(ranked, set(q["gold_doc_ids"])))
                row = {"dataset": dataset.name, "mode": mode, "questions": len(per_q)}
                row.update({m: round(statistics.mean(s[m] for s in per_q), 3) for m in per_q[0]})
                row["median_ms"] = round(1000 * statistics.median(latencies), 1)
                row["chunks"] = kb.count()
                row["ingest_chunks_per_s"] = round(kb.count() / ingest_s, 1)
                rows.append(row)
                print(row, flush=True)  # noqa: T201 - a benchmark prints figures
    return rows


class RandomEmbeddings(Embeddings):
    """Unit vectors from a generator: the cost of search, not of an embedding model."""

    def __init__(self, rng: np.random.Generator, dim: int = 384) -> None:
        self._rng = rng
        self._dim = dim

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Return one random unit vector per text."""
        return [self.embed_query(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        """Return a random unit vector (the text is not read)."""
        vec = self._rng.standard_normal(self._dim).astype(np.float32)
        return [float(x) for x in vec / np.linalg.norm(vec)]


VOCAB = [f"w{i}" for i in range(20000)]
"""Words of the synthetic chunks and queries."""


def load_synthetic(
    kb: KnowledgeBase,
    size: int,
    rng: np.random.Generator,
    metadata: Callable[[int], dict[str, Any]],
    dim: int = 384,
) -> None:
    """Bulk load `size` chunks of random unit vectors and 60 random words, without ingestion.

    `metadata(i)` gives chunk i's metadata; it must say who may read it (core.access).
    """
    step = 5000
    for start in range(0, size, step):
        n = min(step, size - start)
        vecs = rng.standard_normal((n, dim)).astype(np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        kb._chunks.add(
            ids=[f"c{start + i}" for i in range(n)],
            embeddings=vecs.tolist(),
            documents=[" ".join(rng.choice(VOCAB, 60)) for _ in range(n)],
            metadatas=[metadata(start + i) for i in range(n)],
        )
    kb._bump()  # builds and saves the BM25 index (with each chunk's readers)


def scale_table(sizes: list[int], dim: int = 384, queries: int = 50) -> list[dict[str, Any]]:
    """Vector, BM25 and hybrid latency with synthetic chunks (random vectors, random words)."""
    rng = np.random.default_rng(0)
    rows = []
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            kb = KnowledgeBase.open(
                tmp, "scale", "test:random", create=True, embeddings=RandomEmbeddings(rng, dim)
            )
            started = time.perf_counter()
            load_synthetic(
                kb,
                size,
                rng,
                lambda i: {"source": "synthetic", "doc_id": f"d{i}", **access_metadata()},
                dim,
            )
            load_s = time.perf_counter() - started
            row: dict[str, Any] = {"chunks": size, "load_s": round(load_s, 1)}
            for mode in MODES:
                retriever = HybridRetriever(kb=kb, k=10, fetch_k=20, mode=mode)
                times = []
                for _ in range(queries):
                    query = " ".join(rng.choice(VOCAB, 8))
                    t0 = time.perf_counter()
                    retriever.invoke(query)
                    times.append(1000 * (time.perf_counter() - t0))
                times.sort()
                row[f"{mode}_median_ms"] = round(statistics.median(times), 1)
                row[f"{mode}_p95_ms"] = round(times[int(0.95 * (len(times) - 1))], 1)
            row["max_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
            rows.append(row)
            print(row, flush=True)  # noqa: T201
    return rows
