"""Retrieval latency with the per-reader filter against no filter, on one synthetic collection."""

from __future__ import annotations

import statistics
import tempfile
import time
from typing import Any

import numpy as np
from adaptive_rag.core.access import Reader, access_metadata
from adaptive_rag.knowledge.chroma.store import ChromaStore
from adaptive_rag.knowledge.embeddings import load_embeddings, resolve_embeddings_spec
from adaptive_rag.knowledge.retriever import HybridRetriever
from langchain_core.embeddings import Embeddings
from scale_bench import VOCAB, RandomEmbeddings, load_synthetic


def _owner(i: int, tenants: int) -> dict[str, Any]:
    """Spread chunks: a tenth public, the rest over tenants, one in twenty shared with a group."""
    if i % 10 == 0:
        return access_metadata()
    tenant = i % tenants
    return access_metadata(f"tenant{tenant}", ["team"] if i % 20 == 1 else [])


def access_table(
    size: int, tenants: int, queries: int, embedding_model: str = "auto", seed: int = 0
) -> list[dict[str, Any]]:
    """Time each search mode unfiltered and as one tenant (with a group), interleaved per query.

    Chunks are random vectors and words (bulk loaded); queries are embedded by `embedding_model`
    as in a real search ("random": not at all, to see the search alone).
    """
    rng = np.random.default_rng(seed)
    rows: list[dict[str, Any]] = []
    queries_by: Embeddings = RandomEmbeddings(np.random.default_rng(seed))
    if embedding_model != "random":
        queries_by = load_embeddings(resolve_embeddings_spec(embedding_model))
    with tempfile.TemporaryDirectory() as tmp:
        kb = ChromaStore.open(tmp, "access", "test:random", create=True, embeddings=queries_by)
        load_synthetic(kb, size, rng, lambda i: {"source": "synthetic", **_owner(i, tenants)})
        readers = {"unfiltered": Reader(everyone=True), "tenant": Reader("tenant3", ("team",))}
        for mode in ("vector", "keyword", "hybrid"):
            times: dict[str, list[float]] = {name: [] for name in readers}
            for q in range(queries):
                query = " ".join(rng.choice(VOCAB, 8))
                order = list(readers) if q % 2 == 0 else list(reversed(readers))
                for name in order:
                    retriever = HybridRetriever(
                        kb=kb, k=10, fetch_k=20, mode=mode, reader=readers[name]
                    )
                    t0 = time.perf_counter()
                    retriever.invoke(query)
                    times[name].append(1000 * (time.perf_counter() - t0))
            p50 = {name: statistics.median(t) for name, t in times.items()}
            row = {
                "chunks": size,
                "queries": embedding_model,
                "mode": mode,
                "unfiltered_p50_ms": round(p50["unfiltered"], 1),
                "filtered_p50_ms": round(p50["tenant"], 1),
                "ratio": round(p50["tenant"] / p50["unfiltered"], 3),
                "readable_share": round(_share(kb, readers["tenant"]), 3),
            }
            rows.append(row)
            print(row, flush=True)
    return rows


def _share(kb: ChromaStore, reader: Reader) -> float:
    """Share of the collection the reader may read."""
    index = kb.derived_index()
    return float(index.readable(reader).mean()) if index.ids else 0.0
