"""Search latency and memory at scale, on synthetic chunks bulk loaded into Chroma.

Chunks are random unit vectors and 60 random words; each also holds entities drawn from a Zipf
distribution over an entity vocabulary (a few names in thousands of chunks, most in a handful),
so the entity graph has the shape real names give it, and a publisher and an author drawn the same
way (knowledge.facets), which every query names.
"""

from __future__ import annotations

import os
import resource
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
from adaptive_rag.core.access import access_metadata
from adaptive_rag.knowledge.chroma.store import ChromaStore
from adaptive_rag.knowledge.facets import FacetIndex
from adaptive_rag.knowledge.retriever import HybridRetriever
from langchain_core.embeddings import Embeddings

VOCAB = [f"w{i}" for i in range(20000)]
"""Words of the synthetic chunks and queries."""
ENTITIES_PER_CHUNK = 8
"""Entities each synthetic chunk holds (distinct, drawn by ZIPF_A)."""
ZIPF_A = 1.3
"""Zipf exponent of entity frequency: the k-th commonest entity is drawn in proportion to k^-a."""
ENTITY_VOCAB = 200_000
"""Distinct entity names the draws are folded into."""
PUBLISHERS = 300
AUTHORS = 20_000
"""Distinct publishers and authors the chunks' fields are drawn from (by ZIPF_A too)."""


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


def synthetic_entities(rng: np.random.Generator) -> list[str]:
    """Return ENTITIES_PER_CHUNK distinct entity keys drawn from the Zipf distribution."""
    found: set[str] = set()
    while len(found) < ENTITIES_PER_CHUNK:
        found.add(f"e{(int(rng.zipf(ZIPF_A)) - 1) % ENTITY_VOCAB}")
    return sorted(found)


def _zipf_name(rng: np.random.Generator, prefix: str, count: int) -> str:
    """Return one of `count` names, the k-th commonest drawn in proportion to k^-ZIPF_A."""
    return f"{prefix} {(int(rng.zipf(ZIPF_A)) - 1) % count}"


def synthetic_batches(
    size: int,
    rng: np.random.Generator,
    metadata: Callable[[int], dict[str, Any]],
    dim: int = 384,
    step: int = 5000,
) -> Iterator[tuple[list[str], list[list[float]], list[str], list[dict[str, Any]]]]:
    """Yield `size` synthetic chunks in batches: ids, unit vectors, 60 random words, metadata.

    `metadata(i)` gives chunk i's metadata; it must say who may read it (core.access).
    """
    for start in range(0, size, step):
        n = min(step, size - start)
        vecs = rng.standard_normal((n, dim)).astype(np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        yield (
            [f"c{start + i}" for i in range(n)],
            vecs.tolist(),
            [" ".join(rng.choice(VOCAB, 60)) for _ in range(n)],
            [metadata(start + i) for i in range(n)],
        )


def load_synthetic(
    kb: ChromaStore,
    size: int,
    rng: np.random.Generator,
    metadata: Callable[[int], dict[str, Any]],
    dim: int = 384,
) -> None:
    """Bulk load `size` synthetic chunks (synthetic_batches) into Chroma, without ingestion."""
    for ids, vectors, texts, metas in synthetic_batches(size, rng, metadata, dim):
        kb._chunks.add(ids=ids, embeddings=vectors, documents=texts, metadatas=metas)
    kb._bump()  # builds and saves the BM25 index and the graph (with each chunk's readers)


def _graph_size(kb: ChromaStore, folder: Path) -> dict[str, Any]:
    """Return the graph's entities, edges, array size and size on disk."""
    graph = kb.derived_index().graph
    disk = sum(os.path.getsize(folder / f) for f in ("graph.npz", "entities.json"))
    return {
        "entities": len(graph.entities),
        "edges": graph.edges(),
        "graph_arrays_mb": round(graph.nbytes() / 2**20, 1),
        "graph_disk_mb": round(disk / 2**20, 1),
    }


def _facets_cost(kb: ChromaStore, folder: Path) -> dict[str, Any]:
    """Return the facet index's values, its build time over the stored metadata, and meta.json."""
    metas: list[Mapping[str, Any]] = [chunk.metadata for chunk in kb.stored()]
    started = time.perf_counter()
    facets = FacetIndex.build(metas)
    return {
        "facet_values": sum(len(held) for held in facets.values.values()),
        "facets_build_s": round(time.perf_counter() - started, 2),
        "index_meta_mb": round(os.path.getsize(folder / "meta.json") / 2**20, 1),
    }


def scale_table(sizes: list[int], dim: int = 384, queries: int = 50) -> list[dict[str, Any]]:
    """Latency of each search mode, and of hybrid with the graph, with graph size and memory."""
    rng = np.random.default_rng(0)
    rows = []
    modes: list[tuple[str, Any, bool, bool]] = [
        ("keyword", "keyword", False, False),
        ("vector", "vector", False, False),
        ("hybrid", "hybrid", False, False),
        ("graph", "hybrid", True, False),
        ("default", "hybrid", True, True),
    ]
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            kb = ChromaStore.open(
                tmp, "scale", "test:random", create=True, embeddings=RandomEmbeddings(rng, dim)
            )
            started = time.perf_counter()
            load_synthetic(
                kb,
                size,
                rng,
                lambda i: {
                    "source": "synthetic",
                    "doc_id": f"d{i}",
                    "entities": synthetic_entities(rng),
                    "publisher": _zipf_name(rng, "Publisher", PUBLISHERS),
                    "author": _zipf_name(rng, "Author", AUTHORS),
                    **access_metadata(),
                },
                dim,
            )
            row: dict[str, Any] = {"chunks": size, "load_s": round(time.perf_counter() - started)}
            times: dict[str, list[float]] = {label: [] for label, *_ in modes}
            for q in range(queries):  # interleaved, so load on the machine falls on every mode
                words = " ".join(rng.choice(VOCAB, 8))
                named = (_zipf_name(rng, "Publisher", PUBLISHERS), _zipf_name(rng, "Author", 50))
                query = f"{words}, as {named[0]} and {named[1]} wrote"
                for label, mode, graph, facets in modes if q % 2 == 0 else reversed(modes):
                    retriever = HybridRetriever(
                        kb=kb, k=10, fetch_k=20, mode=mode, graph=graph, facets=facets
                    )
                    t0 = time.perf_counter()
                    retriever.invoke(query)
                    times[label].append(1000 * (time.perf_counter() - t0))
            for label, measured in times.items():
                measured.sort()
                row[f"{label}_p50_ms"] = round(statistics.median(measured), 1)
                row[f"{label}_p95_ms"] = round(measured[int(0.95 * (len(measured) - 1))], 1)
            row.update(_graph_size(kb, Path(kb._bm25_dir)))
            row.update(_facets_cost(kb, Path(kb._bm25_dir)))
            row["max_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
            rows.append(row)
            print(row, flush=True)
    return rows
