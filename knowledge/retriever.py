"""Hybrid search: vector and keyword (BM25) results fused by reciprocal rank, in any store.

With `graph` on, the entity graph (knowledge.graph) then ranks chunks by personalized PageRank
from the top fused hits and the question's entities (and the bridges an earlier hop found), and
its ranking is fused with the other two by the same RRF: how a question reaches the document that
names what the question does not (the bridge), and how documents that share names with the best
hits rise among the others.

A question that names values of the documents' own fields ("the article from The Verge",
"on 2023-11-24": knowledge.facets) is also searched within each value it names, both ways, and
each such ranking is fused too, so every named publisher or date has its best chunk ranked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from adaptive_rag.core.access import Reader
from adaptive_rag.core.secrets import describe
from adaptive_rag.core.text import entities_of
from adaptive_rag.knowledge import facets as facet_search
from adaptive_rag.knowledge.facets import Named
from adaptive_rag.knowledge.filters import matches
from adaptive_rag.knowledge.fusion import reciprocal_rank_fusion
from adaptive_rag.knowledge.interface import KnowledgeStore
from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict

AGREEMENT_DEPTH = 3
CHANNELS = ("vector", "keyword", "graph", "facet")
"""The search channels; each returned chunk carries its `<channel>_rank` and `<channel>_score`
(`facet`: its best rank within a value the question names)."""
GRAPH_SEEDS = 2
"""The top fused hits the graph walks from (each weighted 1 / its rank), with the question."""


class RetrievalDegradedError(RuntimeError):
    """One search channel failed and the other found nothing."""


class HybridRetriever(BaseRetriever):
    """Search one knowledge base by meaning and by keywords, and fuse the two rankings."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    kb: KnowledgeStore
    k: int = 4
    fetch_k: int = 20
    mode: Literal["hybrid", "vector", "keyword"] = "hybrid"
    metadata_filter: dict[str, Any] | None = None
    small_to_big: bool = False
    reader: Reader = Reader()
    """Who is asking: only documents they may read are searched or returned (core.access)."""
    graph: bool = True
    """Walk the entity graph from the top hits and fuse what it links (the `graph` channel)."""
    facets: bool = True
    """Also search within each value of the documents' own fields the query names."""
    bridges: tuple[str, ...] = ()
    """Entity keys the walk also starts from: names an earlier hop found in chunks this reader
    read (a multi-step search's bridge), beside the query's own."""
    weights: dict[str, float] = {}
    """Each channel's weight in the fusion, by name (CHANNELS); a channel not named weighs 1."""

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun | None = None
    ) -> list[Document]:
        rankings: list[list[tuple[str, float]]] = []  # each channel's (chunk id, score) pairs
        labels: list[str] = []  # the channel of each ranking
        channel_hits: dict[str, dict[str, tuple[int, float]]] = {}
        failures: list[str] = []  # a search channel down: the other served alone
        skipped: list[str] = []  # an addition (graph, facets) down: searched without it
        named = self._named(query, skipped)
        deep = any(value.held > facet_search.EXACT_WITHIN for value in named)
        vector, nearest = self._search(query, rankings, labels, channel_hits, failures, deep)
        fused = self._fuse(rankings, labels)
        # both channels put it in their top 3: a free, strong relevance signal (see retrieve node)
        agreed = (
            set.intersection(*({cid for cid, _ in r[:AGREEMENT_DEPTH]} for r in rankings))
            if len(rankings) > 1
            else set()
        )
        linked: dict[str, tuple[str, ...]] = {}
        if self.graph and fused:
            try:
                walked, linked = self._walk(query, [cid for cid, _ in fused[:GRAPH_SEEDS]])
            except Exception as exc:  # the graph is an addition: without it, search as before
                skipped.append(f"graph walk failed ({describe(exc)}); searched without it")
            else:
                rankings.append(walked)
                labels.append("graph")
                channel_hits["graph"] = {
                    cid: (rank, score) for rank, (cid, score) in enumerate(walked, start=1)
                }
                fused = self._fuse(rankings, labels)
        within: dict[str, str] = {}
        if named and fused:
            try:
                faceted = self._within_named(
                    query, named, vector, nearest, "keyword" in channel_hits
                )
            except Exception as exc:  # an addition too: without it, search as before
                skipped.append(f"search within named values failed ({describe(exc)})")
            else:
                hits: dict[str, tuple[int, float]] = {}
                for value, ranking in faceted:
                    rankings.append(ranking)
                    labels.append("facet")
                    for rank, (cid, score) in enumerate(ranking, start=1):
                        if cid not in hits or rank < hits[cid][0]:
                            hits[cid], within[cid] = (rank, score), value.label
                channel_hits["facet"] = hits
                fused = self._fuse(rankings, labels) if faceted else fused
        docs = []
        for doc in self.kb.get([cid for cid, _ in fused[: self.fetch_k * 2]]):
            # both channels filtered already; this check is the one every returned chunk passes
            if matches(doc.metadata, self.metadata_filter) and self.reader.may_read(doc.metadata):
                docs.append(doc)
        scores = dict(fused)
        fused_rank = {cid: rank for rank, (cid, _) in enumerate(fused, start=1)}
        for doc in docs:
            cid = str(doc.id)
            doc.metadata["score"] = round(scores.get(cid, 0.0), 5)
            doc.metadata["rank"] = fused_rank.get(cid, 0)
            doc.metadata["agreement"] = cid in agreed
            doc.metadata["graph_entities"] = list(linked.get(cid, ()))  # which entities linked it
            doc.metadata["named_value"] = within.get(cid, "")  # the named value it was found in
            for name in CHANNELS:  # rank 0: this channel did not find it (or did not run)
                rank, score = channel_hits.get(name, {}).get(cid, (0, 0.0))
                doc.metadata[f"{name}_rank"] = rank
                doc.metadata[f"{name}_score"] = round(float(score), 5)
        docs = docs[: self.k]
        if failures and not docs:
            raise RetrievalDegradedError("; ".join(failures) + "; the other search found nothing")
        if failures or skipped:
            for doc in docs:
                doc.metadata["degraded"] = "; ".join(
                    [*(f"{f}; used the other search alone" for f in failures), *skipped]
                )
        return self._widen(docs) if self.small_to_big else docs

    def _fuse(
        self, rankings: list[list[tuple[str, float]]], labels: list[str]
    ) -> list[tuple[str, float]]:
        """Fuse the channels' rankings by RRF, each weighted by its channel's weight."""
        return reciprocal_rank_fusion(
            [[cid for cid, _ in ranking] for ranking in rankings],
            weights=[self.weights.get(label, 1.0) for label in labels],
        )

    def _named(self, query: str, skipped: list[str]) -> list[Named]:
        """Return the values of the documents' fields the query names (none with facets off)."""
        if not self.facets:
            return []
        try:
            return self.kb.named_values(query)
        except Exception as exc:  # an addition: without it, search as before
            skipped.append(f"search within named values failed ({describe(exc)})")
            return []

    def _search(
        self,
        query: str,
        rankings: list[list[tuple[str, float]]],
        labels: list[str],
        hits: dict[str, dict[str, tuple[int, float]]],
        failures: list[str],
        deep: bool,
    ) -> tuple[list[float] | None, list[tuple[str, float]]]:
        """Run the vector and keyword channels; return the query's embedding and nearest chunks.

        With `deep` (a named value too large to search among all its chunks), the vector search
        reads NEAREST_WITHIN chunks (that value's search chooses from them) and ranks its first
        fetch_k. A channel that fails is noted in
        `failures` when the other can serve (hybrid mode); no embedding then gives None.
        """
        vector: list[float] | None = None
        nearest: list[tuple[str, float]] = []

        def by_meaning() -> list[tuple[str, float]]:
            nonlocal vector, nearest
            vector = self.kb.embed_query(query)
            depth = max(self.fetch_k, facet_search.NEAREST_WITHIN) if deep else self.fetch_k
            nearest = self.kb.vector_search(query, depth, self.metadata_filter, self.reader, vector)
            return nearest[: self.fetch_k]

        channels: dict[str, Callable[[], list[tuple[str, float]]]] = {
            "vector": by_meaning,
            # BM25 filters by reader itself; other metadata: over-fetch, then keep what matches
            "keyword": lambda: self.kb.keyword_search(query, self._keyword_depth(), self.reader),
        }
        for name, run in channels.items():
            if self.mode not in ("hybrid", name):
                continue
            try:
                found = run()
            except Exception as exc:  # one channel down (embedding model, index): use the other
                if self.mode != "hybrid" or failures:
                    raise
                failures.append(f"{name} search failed ({describe(exc)})")
                continue
            rankings.append(found)
            labels.append(name)
            hits[name] = {cid: (rank, score) for rank, (cid, score) in enumerate(found, start=1)}
        return vector, nearest

    def _keyword_depth(self) -> int:
        """BM25 hits to fetch: more when a metadata filter will drop some after the search."""
        return self.fetch_k * (3 if self.metadata_filter else 1)

    def _within_named(
        self,
        query: str,
        named: list[Named],
        vector: list[float] | None,
        nearest: list[tuple[str, float]],
        keyword: bool,
    ) -> list[tuple[Named, list[tuple[str, float]]]]:
        """Search within each value the question names; one fused ranking per value.

        Each channel that served the question's own search serves these too: by meaning with
        the query's embedding and nearest chunks already found, by keywords (`keyword`) with the
        query scored once.
        """
        found: list[list[list[tuple[str, float]]]] = [[] for _ in named]
        labels: list[str] = []
        if vector is not None:
            labels.append("vector")
            by_meaning = self.kb.vector_search_within(
                vector, self.fetch_k, named, nearest, self.reader, self.metadata_filter
            )
            for rankings, ranking in zip(found, by_meaning, strict=True):
                rankings.append(ranking)
        if keyword:
            labels.append("keyword")
            by_words = self.kb.keyword_search_within(
                query, self._keyword_depth(), self.reader, named
            )
            for rankings, ranking in zip(found, by_words, strict=True):
                rankings.append(ranking)
        fused = [self._fuse(rankings, labels) for rankings in found]
        return [
            (value, ranking[: self.fetch_k]) for value, ranking in zip(named, fused, strict=True)
        ]

    def _walk(
        self, query: str, seeds: list[str]
    ) -> tuple[list[tuple[str, float]], dict[str, tuple[str, ...]]]:
        """Return the graph channel's ranking, and the entities that linked each chunk in it."""
        weighted = [(cid, 1.0 / rank) for rank, cid in enumerate(seeds, start=1)]
        names = {*entities_of(query), *self.bridges}
        reached = self.kb.graph_search(names, weighted, self.fetch_k, self.reader)
        return [(cid, r.score) for cid, r in reached], {cid: r.entities for cid, r in reached}

    def _widen(self, docs: list[Document]) -> list[Document]:
        """Replace chunks with their whole sections, one per section (small-to-big)."""
        parents = self.kb.parents([str(d.metadata.get("parent_id")) for d in docs])
        widened, seen = [], set()
        for doc in docs:
            pid = str(doc.metadata.get("parent_id"))
            if pid in seen:
                continue
            seen.add(pid)
            text = parents.get(pid) or doc.page_content
            widened.append(Document(page_content=text, metadata=dict(doc.metadata), id=doc.id))
        return widened
