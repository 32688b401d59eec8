"""What the Chroma store derives from its collection at one revision, kept beside it on disk.

BM25 over the chunks (bm25s, words as knowledge.tokenizing cuts them), who may read each, the
entity graph of knowledge.graph and the facets of knowledge.facets, saved together so they never
disagree.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import bm25s
import numpy as np
from adaptive_rag.core.access import GROUPS, OWNER, PUBLIC, Reader
from adaptive_rag.knowledge.chroma import snapshot
from adaptive_rag.knowledge.facets import FacetIndex
from adaptive_rag.knowledge.graph import EntityGraph
from adaptive_rag.knowledge.tokenizing import tokenize

Access = list[dict[str, Any]]
"""Per id, who may read it: {owner, groups} as stored on the chunk (core.access)."""


class DerivedIndex:
    """BM25, readers, entity graph and facets over chunk ids, rebuilt as the collection changes."""

    def __init__(
        self,
        ids: list[str],
        retriever: Any,
        fingerprint: str,
        access: Access,
        graph: EntityGraph | None = None,
        facets: FacetIndex | None = None,
    ) -> None:
        self.ids = ids
        self._retriever = retriever
        self.fingerprint = fingerprint
        self.access = access
        self.graph = graph if graph is not None else EntityGraph.build([[] for _ in ids])
        self.facets = facets if facets is not None else FacetIndex({}, len(ids))
        self.position = {cid: i for i, cid in enumerate(ids)}
        self._owners = np.array([a.get(OWNER) for a in access], dtype=object)
        self._shared: dict[str, np.ndarray] = {}
        for i, entry in enumerate(access):
            for group in entry.get(GROUPS) or ():
                self._shared.setdefault(group, np.zeros(len(ids), dtype=bool))[i] = True

    @classmethod
    def build(
        cls,
        ids: list[str],
        texts: list[str],
        fingerprint: str,
        access: Access,
        graph: EntityGraph | None = None,
        facets: FacetIndex | None = None,
    ) -> DerivedIndex:
        """Index texts (one per id) with who may read each, their entity graph and facets."""
        retriever = bm25s.BM25()
        if ids:
            retriever.index([tokenize(t) for t in texts], show_progress=False)
        return cls(ids, retriever, fingerprint, access, graph, facets)

    def readable(self, reader: Reader) -> np.ndarray:
        """Return a 0/1 weight per id: whether the reader may read it (Reader.may_read)."""
        mask = (self._owners == PUBLIC) | (self._owners == reader.user if reader.user else False)
        for group in reader.named_groups():
            if group in self._shared:
                mask = mask | self._shared[group]
        return np.asarray(mask, dtype=np.float32)

    def search_within(
        self, query: str, n: int, reader: Reader, groups: list[np.ndarray | None]
    ) -> list[list[tuple[str, float]]]:
        """Return, per group of positions (a named value's chunks), its best n (id, score) pairs.

        The query is scored once for all groups; a group of None gets nothing.
        """
        tokens = tokenize(query)
        if not self.ids or not tokens or all(g is None for g in groups):
            return [[] for _ in groups]
        scores = self._retriever.get_scores(tokens)
        if not reader.everyone:
            scores = scores * self.readable(reader)
        found: list[list[tuple[str, float]]] = []
        for positions in groups:
            inside = positions[scores[positions] > 0] if positions is not None else None
            if inside is None or not len(inside):
                found.append([])
                continue
            best = inside[np.argsort(-scores[inside], kind="stable")[:n]]
            found.append([(self.ids[int(i)], float(scores[i])) for i in best])
        return found

    def search(self, query: str, n: int, reader: Reader) -> list[tuple[str, float]]:
        """Return up to n (id, score) pairs the reader may read, with a positive score."""
        tokens = tokenize(query)
        if not self.ids or not tokens:
            return []
        n = min(n, len(self.ids))
        mask = None if reader.everyone else self.readable(reader)
        results, scores = self._retriever.retrieve(
            [tokens], k=n, show_progress=False, weight_mask=mask
        )
        return [
            (self.ids[int(i)], float(s))
            for i, s in zip(results[0], scores[0], strict=True)
            if s > 0
        ]

    def save(self, folder: Path) -> None:
        """Publish the index at `folder` (knowledge.chroma.snapshot): readers see old or new."""
        snapshot.publish(folder, self._write)

    def _write(self, staging: Path) -> None:
        """Write every part of the index into an empty folder of its own."""
        if self.ids:
            self._retriever.save(str(staging / "bm25"))
        self.graph.save(staging)
        (staging / "meta.json").write_text(
            json.dumps(
                {
                    "ids": self.ids,
                    "fingerprint": self.fingerprint,
                    "access": self.access,
                    "facets": self.facets.to_json(),
                }
            )
        )

    @classmethod
    def load(cls, folder: Path) -> DerivedIndex | None:
        """Read the published index, or None if there is none (or it is unreadable)."""
        return snapshot.read(folder, cls._read)

    @classmethod
    def _read(cls, folder: Path) -> DerivedIndex | None:
        """Read one version of a saved index, or None if it is gone or damaged."""
        try:
            meta = json.loads((folder / "meta.json").read_text())
            retriever = bm25s.BM25.load(str(folder / "bm25")) if meta["ids"] else bm25s.BM25()
            access = list(meta["access"])
            graph = EntityGraph.load(folder)
            if graph is None or not len(access) == len(graph) == len(meta["ids"]):
                return None  # saved before the graph existed, or damaged: rebuilt
            facets = FacetIndex.from_json(meta["facets"])  # saved before facets: rebuilt
            if facets.size != len(meta["ids"]):
                return None
            return cls(
                list(meta["ids"]), retriever, str(meta["fingerprint"]), access, graph, facets
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None
