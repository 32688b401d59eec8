"""Fusion against the best single channel: channel weights fitted on some sets, scored on others.

Each set's corpus is ingested once (e5); every question is searched by each single channel
(keyword, vector) and by the default search (hybrid + graph + facets) under each candidate
weighting of the channels in its reciprocal rank fusion, and fused by scores instead (ScoreFused).
The query's embedding is made once per question. For each set left out in turn, the
weighting with the best mean margin over the best single channel (AllGold at k = 2, 4 and 10) on
the other sets is chosen and scored on the one left out; a set named in `held_out` is never
fitted on, only scored. With a cross-encoder (benchmarks/cross_encoder.py), the default search's
candidates are also reranked by it (RERANKED).
"""

from __future__ import annotations

import functools
import random
import statistics
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from adaptive_rag.core.access import Reader
from adaptive_rag.evaluation.judge_fit import auc
from adaptive_rag.evaluation.metrics import ranking_scores
from adaptive_rag.evaluation.sets import EvalSet
from adaptive_rag.knowledge.chroma.store import ChromaStore
from adaptive_rag.knowledge.fusion import reciprocal_rank_fusion
from adaptive_rag.knowledge.retriever import HybridRetriever
from langchain_core.embeddings import Embeddings
from retrieval_bench import _ingest, ranked_doc_ids

KS = (2, 4, 10)
"""The depths the fusion must not fall below its best single channel at."""
KEYWORD = (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0)
GRAPH = (0.5, 1.0, 1.5)
"""The candidate weights of the keyword and graph channels (vector and facets weigh 1)."""


class CachedQueries(Embeddings):
    """An embedding model that makes each query's embedding once."""

    def __init__(self, inner: Embeddings) -> None:
        self.inner = inner
        self.query = functools.lru_cache(maxsize=None)(inner.embed_query)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed documents (not cached)."""
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        """Embed a query, once per text."""
        return list(self.query(text))


class ScoreFused(HybridRetriever):
    """The same search, its channels fused by their scores rather than their ranks.

    Each ranking's scores are scaled to [0, 1] by its own best and worst (min-max), weighted by
    the channel's weight and summed per chunk (a convex combination, Bruch et al. 2023).
    """

    def _fuse(
        self, rankings: list[list[tuple[str, float]]], labels: list[str]
    ) -> list[tuple[str, float]]:
        fused: dict[str, float] = {}
        for ranking, label in zip(rankings, labels, strict=True):
            if not ranking:
                continue
            top, bottom = max(s for _, s in ranking), min(s for _, s in ranking)
            weight = self.weights.get(label, 1.0)
            for cid, score in ranking:
                scaled = (score - bottom) / (top - bottom) if top > bottom else 1.0
                fused[cid] = fused.get(cid, 0.0) + weight * scaled
        return sorted(fused.items(), key=lambda pair: -pair[1])


def candidates() -> dict[str, tuple[type[HybridRetriever], dict[str, float]]]:
    """Every candidate fusion, by a label: 'keyword 0.5, graph 1' (RRF; equal: the default)."""
    found: dict[str, tuple[type[HybridRetriever], dict[str, float]]] = {
        f"keyword {k:g}, graph {g:g}": (HybridRetriever, {"keyword": k, "graph": g})
        for k in KEYWORD
        for g in GRAPH
    }
    for k in KEYWORD:
        found[f"scores: keyword {k:g}"] = (ScoreFused, {"keyword": k})
    return found


RERANKED = {
    "reranked: top 10": (10, None),
    "reranked: top 30": (30, None),
    "reranked: RRF of the fused rank and the reranker's (x2)": (30, 2.0),
}
"""The default search's candidates reranked by a cross-encoder: (how many of its 30 first, and
None to sort them by the reranker's score, or the reranker rank's weight in an RRF with the fused
rank)."""


def reranked(
    doc_ids: list[str], scores: list[float], depth: int, weight: float | None
) -> list[str]:
    """Return the documents in reranked order (chunks of one document count once)."""
    head, tail = list(range(min(depth, len(doc_ids)))), list(range(depth, len(doc_ids)))
    by_model = sorted(head, key=lambda i: -scores[i])
    if weight is None:
        order = by_model + tail
    else:  # the project's own RRF, of the fused order and the reranker's
        rankings = [[str(i) for i in head], [str(i) for i in by_model]]
        fused = reciprocal_rank_fusion(rankings, weights=[1.0, weight])
        order = [int(i) for i, _ in fused] + tail
    return list(dict.fromkeys(doc_ids[i] for i in order))


def scores_per_set(
    sets: list[EvalSet],
    limit: int,
    embedding_model: str,
    seed: int = 7,
    reranker: Path | None = None,
) -> dict[str, dict[str, list[dict[str, float]]]]:
    """Return each set's per-question scores, by configuration ('keyword', 'vector', candidates)."""
    cross = None
    if reranker is not None:
        from cross_encoder import CrossEncoder

        cross = CrossEncoder(reranker)
    out: dict[str, dict[str, list[dict[str, float]]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        ingested: dict[tuple[str, ...], ChromaStore] = {}
        for dataset in sets:
            key = tuple(sorted(str(d["doc_id"]) for d in dataset.corpus))
            if key not in ingested:
                kb, _, _ = _ingest(dataset, Path(tmp), len(ingested), embedding_model)
                kb._embeddings = CachedQueries(kb._embeddings)
                ingested[key] = kb
            kb = ingested[key]
            questions = list(dataset.questions)
            random.Random(seed).shuffle(questions)
            questions = questions[:limit] if limit else questions
            configs: dict[str, HybridRetriever] = {
                "keyword": HybridRetriever(
                    kb=kb, k=30, fetch_k=30, mode="keyword", graph=False, facets=False
                ),
                "vector": HybridRetriever(
                    kb=kb, k=30, fetch_k=30, mode="vector", graph=False, facets=False
                ),
            }
            for label, candidate in candidates().items():
                fusing: type[HybridRetriever] = candidate[0]
                configs[label] = fusing(kb=kb, k=30, fetch_k=30, weights=candidate[1])
            everyone = Reader(everyone=True)
            features = [
                {
                    "keyword": [s for _, s in kb.keyword_search(q["question"], 10, everyone)],
                    "vector": [s for _, s in kb.vector_search(q["question"], 10, reader=everyone)],
                }
                for q in questions
            ]
            out[dataset.name] = {
                label: [
                    ranking_scores(ranked_doc_ids(retriever, q["question"]), set(q["gold_doc_ids"]))
                    for q in questions
                ]
                for label, retriever in configs.items()
            }
            out[dataset.name]["_channel_scores"] = features  # type: ignore[assignment]
            if cross is not None:
                fused = configs["keyword 1, graph 1"]
                for label in RERANKED:
                    out[dataset.name][label] = []
                for q in questions:
                    docs = fused.invoke(q["question"])
                    ids = [str(d.metadata.get("doc_id")) for d in docs]
                    model = cross.scores(q["question"], [d.page_content for d in docs])
                    gold = set(q["gold_doc_ids"])
                    for label, (depth, weight) in RERANKED.items():
                        ranked = reranked(ids, model, depth, weight)
                        out[dataset.name][label].append(ranking_scores(ranked, gold))
            print(dataset.name, len(questions), "questions scored", flush=True)
    return out


def _mean(scores: list[dict[str, float]], metric: str) -> float:
    return statistics.mean(s[metric] for s in scores)


def _best(per_config: dict[str, list[dict[str, float]]], k: int) -> float:
    """Return the best single channel's AllGold@k."""
    return max(_mean(per_config[c], f"allgold@{k}") for c in ("keyword", "vector"))


def margin(per_config: dict[str, list[dict[str, float]]], label: str) -> float:
    """Mean over k of AllGold@k of a candidate minus the best single channel's."""
    return statistics.mean(
        _mean(per_config[label], f"allgold@{k}") - _best(per_config, k) for k in KS
    )


def fitted(scores: dict[str, dict[str, list[dict[str, float]]]], on: list[str]) -> str:
    """Return the candidate with the best mean margin over the sets `on` (ties: equal weights)."""
    labels = list(candidates())
    equal = "keyword 1, graph 1"
    labels.sort(key=lambda label: label != equal)  # the default first: it wins ties
    return max(labels, key=lambda label: statistics.mean(margin(scores[s], label) for s in on))


def held_out_rows(
    scores: dict[str, dict[str, list[dict[str, float]]]], held_out: list[str]
) -> list[dict[str, Any]]:
    """Score each set's channels and fusions; note where a fusion is below the best channel.

    The fusions: the default, score fusion, and the weighting fitted without the set.
    """
    fitting = [name for name in scores if name not in held_out]
    rows = []
    for name, per_config in scores.items():
        chosen = fitted(scores, [s for s in fitting if s != name])
        for label, role in (
            ("keyword", "keyword (BM25)"),
            ("vector", "vector"),
            ("keyword 1, graph 1", "default: RRF, equal weights"),
            ("scores: keyword 1", "scores (min-max), equal weights"),
            (chosen, f"fitted without this set: {chosen}"),
            *((label, label) for label in RERANKED if label in per_config),
        ):
            row: dict[str, Any] = {
                "dataset": name,
                "fusion": role,
                "questions": len(per_config[label]),
            }
            for k in KS:
                row[f"allgold@{k}"] = round(_mean(per_config[label], f"allgold@{k}"), 3)
            if label not in ("keyword", "vector"):
                below = [
                    str(k)
                    for k in KS
                    if _mean(per_config[label], f"allgold@{k}") < _best(per_config, k)
                ]
                row["below the best channel at k"] = ", ".join(below) or "none"
            rows.append(row)
    return rows


SIGNALS: dict[str, Any] = {
    "keyword: best score": lambda kw, vec: kw[0],
    "keyword: 10th score / best": lambda kw, vec: kw[-1] / kw[0] if kw[0] > 0 else 1.0,
    "vector: best similarity": lambda kw, vec: vec[0],
    "vector: best - 10th similarity": lambda kw, vec: vec[0] - vec[-1],
}
"""What a question's own searches say before fusing: each channel's top scores."""


def signal_rows(
    scores: dict[str, dict[str, list[dict[str, float]]]], held_out: list[str]
) -> list[dict[str, Any]]:
    """How well each signal tells, on the fitting sets, the questions vector search serves better.

    Over the questions where the two channels' mean AllGold (k = 2, 4, 10) differ: the AUC of the
    signal for "vector better" (0.5: no better than chance; below 0.5: the signal points the
    other way, read 1 - AUC).
    """
    labelled: list[tuple[list[float], list[float], bool]] = []
    for name, per_config in scores.items():
        if name in held_out:
            continue
        channel_scores: list[dict[str, list[float]]] = per_config["_channel_scores"]  # type: ignore[assignment]
        for i, found in enumerate(channel_scores):
            value = {
                c: statistics.mean(per_config[c][i][f"allgold@{k}"] for k in KS)
                for c in ("keyword", "vector")
            }
            if value["keyword"] != value["vector"] and found["keyword"] and found["vector"]:
                labelled.append(
                    (found["keyword"], found["vector"], value["vector"] > value["keyword"])
                )
    vector_better = np.asarray([y for _, _, y in labelled], dtype=float)
    rows = []
    for label, signal in SIGNALS.items():
        area = auc(vector_better, np.asarray([signal(kw, vec) for kw, vec, _ in labelled]))
        rows.append(
            {
                "signal": label,
                "questions": len(labelled),
                "vector better": int(vector_better.sum()),
                "AUC for vector better": float("nan") if area is None else round(area, 3),
            }
        )
    return rows
