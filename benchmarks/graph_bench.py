"""The graph channel's fusion, measured: the default against the variants tried beside it.

Every variant starts from the same searches (vector and BM25, 30 hits each, fused by RRF as
hybrid search does) and the same graph, and differs only in how the graph's ranking is made and
fused: the default (personalized PageRank on the neighbourhood of the top two hits and the
question's entities, equal-weight RRF), weighted RRF, PageRank over the whole graph (as HippoRAG
runs it), one step to a name only two chunks share, and the graph as a second-stage expansion
(its best new chunk placed right after the top three hits).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from typing import Any

import numpy as np
from adaptive_rag.core.access import Reader
from adaptive_rag.core.text import entities_of
from adaptive_rag.evaluation.metrics import ranking_scores
from adaptive_rag.knowledge.chroma.store import ChromaStore
from adaptive_rag.knowledge.fusion import RRF_K, reciprocal_rank_fusion
from adaptive_rag.knowledge.graph import EntityGraph
from adaptive_rag.knowledge.retriever import GRAPH_SEEDS

DEPTH = 30
"""Hits per channel, and chunks ranked per question (as the recall table's k)."""
Searches = tuple[list[str], list[str], list[str]]
"""Vector hits, keyword hits and their RRF fusion, as chunk ids."""


def _weighted(rankings: list[list[str]], weights: list[float]) -> list[str]:
    scores: dict[str, float] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        for rank, cid in enumerate(dict.fromkeys(ranking), start=1):
            scores[cid] = scores.get(cid, 0.0) + weight / (RRF_K + rank)
    return sorted(scores, key=lambda cid: -scores[cid])


def _walk(kb: ChromaStore, question: str, fused: list[str]) -> list[str]:
    """Return the graph channel's ranking as the retriever makes it (knowledge.graph's walk)."""
    seeds = [(cid, 1.0 / rank) for rank, cid in enumerate(fused[:GRAPH_SEEDS], start=1)]
    return [
        cid
        for cid, _ in kb.graph_search(entities_of(question), seeds, DEPTH, Reader(everyone=True))
    ]


def _one_step(kb: ChromaStore, question: str, fused: list[str]) -> list[str]:
    """Return the top two hits, then the chunk one step away through a name only two hold.

    Names the question holds are not walked through, nor are chunks holding them returned.
    """
    index = kb.derived_index()
    graph = index.graph
    asked = {graph.lookup[n] for n in entities_of(question) if n in graph.lookup}
    seeds = [index.position[c] for c in fused[:GRAPH_SEEDS] if c in index.position]
    scores: dict[int, float] = {}
    for rank, seed in enumerate(seeds, start=1):
        for entity in graph.chunk_entities[graph.chunk_ptr[seed] : graph.chunk_ptr[seed + 1]]:
            holders = graph.entity_chunks[graph.entity_ptr[entity] : graph.entity_ptr[entity + 1]]
            if int(entity) in asked or len(holders) != 2:
                continue
            for other in holders.tolist():
                own = graph.chunk_entities[graph.chunk_ptr[other] : graph.chunk_ptr[other + 1]]
                if other not in seeds and asked.isdisjoint(own.tolist()):
                    scores[other] = scores.get(other, 0.0) + 0.5 / rank
    best = sorted(scores, key=lambda p: -scores[p])[:1]
    return fused[:GRAPH_SEEDS] + [index.ids[p] for p in best]


def pagerank(graph: EntityGraph, seeds: dict[int, float], names: list[str]) -> np.ndarray:
    """Return personalized PageRank over chunks and entities (damping 0.5, 30 steps)."""
    chunks, entities = len(graph), len(graph.entities)
    owners = np.repeat(np.arange(chunks), np.diff(graph.chunk_ptr))
    held = graph.chunk_entities
    chunk_degree = np.maximum(np.diff(graph.chunk_ptr), 1)
    entity_degree = np.maximum(np.bincount(held, minlength=entities), 1)
    start_chunks, start_entities = np.zeros(chunks), np.zeros(entities)
    for position, weight in seeds.items():
        start_chunks[position] += weight
    for name in names:  # the question's entities, each by its specificity (1 / chunks holding it)
        if name in graph.lookup:
            start_entities[graph.lookup[name]] += 1.0 / entity_degree[graph.lookup[name]]
    if start_entities.sum():
        start_entities *= 0.5 * start_chunks.sum() / start_entities.sum()
    total = start_chunks.sum() + start_entities.sum()
    start_chunks, start_entities = start_chunks / total, start_entities / total
    at_chunks, at_entities = start_chunks.copy(), start_entities.copy()
    for _ in range(30):
        to_entities = np.bincount(held, at_chunks[owners] / chunk_degree[owners], entities)
        to_chunks = np.bincount(owners, at_entities[held] / entity_degree[held], chunks)
        at_chunks = 0.5 * start_chunks + 0.5 * to_chunks
        at_entities = 0.5 * start_entities + 0.5 * to_entities
    return np.asarray(at_chunks)


def _ppr(kb: ChromaStore, question: str, fused: list[str]) -> list[str]:
    index = kb.derived_index()
    seeds = {index.position[c]: 1.0 / r for r, c in enumerate(fused[:2], 1) if c in index.position}
    scores = pagerank(index.graph, seeds, entities_of(question))
    best = np.argsort(-scores, kind="stable")[:DEPTH]
    return [index.ids[int(i)] for i in best if scores[i] > 0]


def _rrf(rankings: list[list[str]]) -> list[str]:
    return [cid for cid, _ in reciprocal_rank_fusion(rankings)]


VARIANTS: dict[str, Callable[[ChromaStore, str, Searches], list[str]]] = {
    "hybrid (no graph)": lambda kb, q, s: s[2],
    "PageRank on the neighbourhood, rrf (default)": lambda kb, q, s: _rrf(
        [s[0], s[1], _walk(kb, q, s[2])]
    ),
    "PageRank on the neighbourhood, weighted rrf x0.5": lambda kb, q, s: _weighted(
        [s[0], s[1], _walk(kb, q, s[2])], [1.0, 1.0, 0.5]
    ),
    "PageRank on the neighbourhood, weighted rrf x2": lambda kb, q, s: _weighted(
        [s[0], s[1], _walk(kb, q, s[2])], [1.0, 1.0, 2.0]
    ),
    "PageRank on the whole graph, rrf": lambda kb, q, s: _rrf([s[0], s[1], _ppr(kb, q, s[2])]),
    "one step to a name two chunks share, rrf": lambda kb, q, s: _rrf(
        [s[0], s[1], _one_step(kb, q, s[2])]
    ),
    "expansion: the walk's best new chunk after the top 3": lambda kb, q, s: list(
        dict.fromkeys(s[2][:3] + [c for c in _walk(kb, q, s[2]) if c not in s[2][:3]][:1] + s[2])
    ),
}


def fusion_rows(
    kb: ChromaStore, name: str, questions: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Score every variant on a set's questions over its ingested collection."""
    doc_of = {chunk.id: str(chunk.metadata.get("doc_id")) for chunk in kb.stored()}
    searches: list[Searches] = []
    everyone = Reader(everyone=True)
    for q in questions:
        vector = [c for c, _ in kb.vector_search(q["question"], DEPTH, reader=everyone)]
        keyword = [c for c, _ in kb.keyword_search(q["question"], DEPTH, everyone)]
        fused = [c for c, _ in reciprocal_rank_fusion([vector, keyword])]
        searches.append((vector, keyword, fused))
    rows = []
    for label, variant in VARIANTS.items():
        scores = []
        for q, found in zip(questions, searches, strict=True):
            ranked = variant(kb, q["question"], found)[:DEPTH]
            documents = list(dict.fromkeys(doc_of[c] for c in ranked))
            scores.append(ranking_scores(documents, set(q["gold_doc_ids"])))
        row: dict[str, Any] = {"dataset": name, "fusion": label, "questions": len(scores)}
        row.update({m: round(statistics.mean(s[m] for s in scores), 3) for m in scores[0]})
        rows.append(row)
        print(row, flush=True)
    return rows
