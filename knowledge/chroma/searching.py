"""The Chroma store's searches: by meaning (Chroma), BM25, within named values, by graph.

BM25, who may read each chunk, the graph and the facets are the derived index's
(knowledge.chroma.derived), held in memory at the collection's revision.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Collection
from typing import Any

import numpy as np
from adaptive_rag.core.access import Reader
from adaptive_rag.knowledge import facets
from adaptive_rag.knowledge.chroma.derived import DerivedIndex
from adaptive_rag.knowledge.chroma.filters import chroma_where
from adaptive_rag.knowledge.facets import Named
from adaptive_rag.knowledge.filters import Equalities, matches
from adaptive_rag.knowledge.graph import Reached
from langchain_core.embeddings import Embeddings

POST_FILTER_MIN_SHARE = 0.1
"""Below this share of readable chunks Chroma's own filter is cheaper than over-fetching."""


class ChromaSearching(ABC):
    """The searches of the Chroma store; the store provides the collections and the index."""

    _chunks: Any
    _embeddings: Embeddings
    _derived: DerivedIndex | None

    @abstractmethod
    def count(self) -> int:
        """Return how many chunks the collection holds (the store asks Chroma)."""

    @abstractmethod
    def derived_index(self) -> DerivedIndex:
        """Return the current BM25 index, readers, graph and facets (the store keeps it)."""

    @abstractmethod
    def _observe(self) -> str:
        """Return the collection's fingerprint, with other processes' writes loaded to search."""

    def embed_query(self, query: str) -> list[float]:
        """Return the query's embedding, as vector search makes it."""
        return self._embeddings.embed_query(query)

    def vector_search(
        self,
        query: str,
        n: int,
        where: Equalities | None = None,
        reader: Reader | None = None,
        vector: list[float] | None = None,
    ) -> list[tuple[str, float]]:
        """Return up to n (chunk id, cosine similarity) pairs the reader may read, best first.

        `where`: equalities the chunks' metadata must hold. `vector`: the query's embedding when
        already made (embed_query), so it is made once.
        """
        reader = reader or Reader()
        size = self.count()
        if size == 0:
            return []
        self._observe()
        vector = vector or self.embed_query(query)
        if not reader.everyone and not where:
            found = self._post_filtered(vector, n, size, reader)
            if found is not None:
                return found
        return self._nearest(vector, min(n, size), chroma_where(where, reader))

    def _nearest(
        self, vector: list[float], n: int, where: dict[str, Any] | None
    ) -> list[tuple[str, float]]:
        """Return Chroma's n nearest chunks (matching `where`) with their cosine similarity."""
        found = self._chunks.query(
            query_embeddings=[vector], n_results=n, where=where or None, include=["distances"]
        )
        return [
            (cid, 1.0 - float(dist))
            for cid, dist in zip(found["ids"][0], found["distances"][0], strict=True)
        ]

    def _post_filtered(
        self, vector: list[float], n: int, size: int, reader: Reader
    ) -> list[tuple[str, float]] | None:
        """Search unfiltered and drop what the reader may not read, when that is the cheaper way.

        Chroma's metadata filter costs several unfiltered searches (docs/benchmarks.md, Access).
        When the reader may read a large enough share, the nearest n/share*2 hits hold their
        nearest readable ones; if too few come back, None: let Chroma filter.
        """
        index = self.derived_index()  # knows who may read each chunk, at this revision
        allowed = index.readable(reader)
        readable = int(allowed.sum())
        share = readable / max(1, len(index.ids))
        if share < POST_FILTER_MIN_SHARE:
            return None
        want = min(n, readable)
        hits = [
            (cid, score)
            for cid, score in self._nearest(vector, min(size, math.ceil(want / share * 2)), None)
            if (i := index.position.get(cid)) is not None and allowed[i]
        ]
        return hits[:n] if len(hits) >= want else None

    def keyword_search(
        self, query: str, n: int, reader: Reader | None = None
    ) -> list[tuple[str, float]]:
        """Return up to n (chunk id, BM25 score) pairs the reader may read, best first."""
        return self.derived_index().search(query, n, reader or Reader())

    def keyword_search_within(
        self, query: str, n: int, reader: Reader, values: list[Named]
    ) -> list[list[tuple[str, float]]]:
        """Return, per named value, its best n chunks by BM25 (the query scored once).

        A value named at another revision gets nothing: its positions are not this index's.
        """
        index = self._index_at(values[0].revision if values else "")
        groups = [v.positions if v.revision == index.fingerprint else None for v in values]
        return index.search_within(query, n, reader, groups)

    def vector_search_within(
        self,
        vector: list[float],
        n: int,
        values: list[Named],
        nearest: list[tuple[str, float]],
        reader: Reader,
        where: Equalities | None = None,
    ) -> list[list[tuple[str, float]]]:
        """Return, per named value, its best n chunks by meaning that the reader may read.

        A value of at most EXACT_WITHIN chunks is searched among them all (their stored vectors
        compared with the query's, those the reader may read and whose metadata equal `where`'s);
        a larger one is read from `nearest`, the question's own deeper search (NEAREST_WITHIN
        hits, filtered the same way).
        """
        index = self._index_at(values[0].revision if values else "")
        found: list[list[tuple[str, float]]] = []
        for value in values:
            if value.revision != index.fingerprint:
                found.append([])
            elif len(value.positions) <= facets.EXACT_WITHIN:
                found.append(self._nearest_among(vector, value, index, reader, where, n))
            else:
                held = set(value.positions.tolist())
                inside = [(c, s) for c, s in nearest if index.position.get(c, -1) in held]
                found.append(inside[:n])
        return found

    def _nearest_among(
        self,
        vector: list[float],
        value: Named,
        index: DerivedIndex,
        reader: Reader,
        where: Equalities | None,
        n: int,
    ) -> list[tuple[str, float]]:
        """Return a small value's n chunks nearest the query (cosine) that the reader may read."""
        allowed = None if reader.everyone else index.readable(reader)
        ids = [index.ids[int(p)] for p in value.positions if allowed is None or allowed[int(p)]]
        if not ids:
            return []
        if where:
            got = self._chunks.get(ids=ids, include=["embeddings", "metadatas"])
            keep = [i for i, meta in enumerate(got["metadatas"]) if matches(meta or {}, where)]
        else:
            got = self._chunks.get(ids=ids, include=["embeddings"])
            keep = list(range(len(got["ids"])))
        if not keep:
            return []
        rows = np.asarray([got["embeddings"][i] for i in keep], dtype=np.float32)
        query = np.asarray(vector, dtype=np.float32)
        norms = np.linalg.norm(rows, axis=1) * (np.linalg.norm(query) or 1.0)
        cosine = rows @ query / np.where(norms > 0, norms, 1.0)
        order = np.argsort(-cosine, kind="stable")[:n]
        return [(str(got["ids"][keep[i]]), float(cosine[i])) for i in order]

    def _index_at(self, revision: str) -> DerivedIndex:
        """Return the derived index, without asking the store when the one held is at `revision`."""
        held = self._derived
        if held is not None and held.fingerprint == revision:
            return held
        return self.derived_index()

    def named_values(self, question: str) -> list[Named]:
        """Return the values of the documents' own fields the question names (knowledge.facets)."""
        index = self.derived_index()
        return index.facets.named(question, index.fingerprint)

    def graph_search(
        self, names: Collection[str], seeds: list[tuple[str, float]], n: int, reader: Reader
    ) -> list[tuple[str, Reached]]:
        """Return up to n chunks the entity graph ranks from the seeds (chunk id, weight).

        The walk starts from the seeds and from entity keys (the question's, a hop's bridges:
        core.text.entities); only chunks the reader may read are walked through or returned.
        """
        index = self.derived_index()
        allowed = None if reader.everyone else index.readable(reader)
        positions = [
            (p, w)
            for c, w in seeds
            if (p := index.position.get(c)) is not None and (allowed is None or allowed[p])
        ]
        found = index.graph.walk(positions, set(names), allowed, n)
        return [(index.ids[r.position], r) for r in found]
