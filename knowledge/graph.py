"""The entity graph: chunks linked through the entities they share (core.text.entities), no model.

Each chunk's entities are stored on the chunk in its collection (metadata `entities`), so every
process that opens the collection, embedded or on a Chroma server, reads the same graph. This
module holds what is derived from them per revision, beside the BM25 index: the chunk -> entity
and entity -> chunk adjacency as compressed sparse rows (numpy only), saved with the index.

The walk is personalized PageRank (as HippoRAG runs it) from the top hits and the question's
entities, over chunk -> entity -> chunk edges: each chunk passes its weight to its entities and
each entity to the chunks that hold it, divided by how many do (a name two chunks share links them
strongly; a topic in fifty, hardly), half of it returning to the seeds at each step. Its budget is
the neighbourhood: only the entities the seeds and the question hold, none held by more than
`WIDE` chunks, so a walk costs the same in a collection of a thousand chunks or a million. Only
chunks the reader may read are counted, reached or returned.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

WIDE = 64
"""An entity held by more chunks than this is a topic, not a link: never walked (a cost bound)."""
QUESTION_WEIGHT = 0.5
"""The question's entities seed the walk with this share of the top hits' weight."""
DAMPING = 0.5
"""The share of the weight that returns to the seeds at each step (HippoRAG's)."""
STEPS = 10
"""Power iterations of the walk (its ranking no longer changes after a few)."""


@dataclass(frozen=True)
class Reached:
    """A chunk the walk reached: its position, its score, and the entities that linked it."""

    position: int
    score: float
    entities: tuple[str, ...]


class EntityGraph:
    """Chunk positions (as in the keyword index) linked through entity ids."""

    def __init__(
        self,
        entities: list[str],
        chunk_ptr: np.ndarray,
        chunk_entities: np.ndarray,
    ) -> None:
        self.entities = entities
        self.lookup = {name: i for i, name in enumerate(entities)}
        self.chunk_ptr = chunk_ptr
        self.chunk_entities = chunk_entities
        order = np.argsort(chunk_entities, kind="stable")
        owners = np.repeat(np.arange(len(chunk_ptr) - 1), np.diff(chunk_ptr))
        self.entity_chunks = owners[order].astype(np.int32)
        counts = np.bincount(chunk_entities, minlength=len(entities))
        self.entity_ptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)

    @classmethod
    def build(cls, per_chunk: Sequence[Sequence[str]]) -> EntityGraph:
        """Index each chunk's entity keys (one list per chunk position)."""
        lookup: dict[str, int] = {}
        ptr = [0]
        flat: list[int] = []
        for names in per_chunk:
            flat.extend(lookup.setdefault(name, len(lookup)) for name in dict.fromkeys(names))
            ptr.append(len(flat))
        return cls(
            list(lookup),
            np.asarray(ptr, dtype=np.int64),
            np.asarray(flat, dtype=np.int32),
        )

    def __len__(self) -> int:
        return len(self.chunk_ptr) - 1

    def edges(self) -> int:
        """Return how many chunk-entity edges the graph holds."""
        return len(self.chunk_entities)

    def nbytes(self) -> int:
        """Return the size of the adjacency arrays (the entity names not counted)."""
        arrays = (self.chunk_ptr, self.chunk_entities)
        return sum(a.nbytes for a in (*arrays, self.entity_chunks, self.entity_ptr))

    def entities_of(self, position: int) -> list[str]:
        """Return the entity keys of the chunk at a position."""
        start, end = self.chunk_ptr[position], self.chunk_ptr[position + 1]
        return [self.entities[e] for e in self.chunk_entities[start:end]]

    def walk(
        self,
        seeds: Sequence[tuple[int, float]],
        question: set[str],
        allowed: np.ndarray | None,
        depth: int,
    ) -> list[Reached]:
        """Return up to `depth` chunks by personalized PageRank from the seeds, best first.

        `seeds` are the top hits as (position, weight); `question` holds the question's entity
        keys, which seed the walk too; `allowed` is a 0/1 weight per position (who may read it),
        None for all.
        """
        entities, members = self._neighbourhood(seeds, question, allowed)
        held = np.diff(self.chunk_ptr)
        return rank(seeds, question, entities, members, lambda chunks: held[chunks], depth)

    def _neighbourhood(
        self, seeds: Sequence[tuple[int, float]], question: set[str], allowed: np.ndarray | None
    ) -> tuple[list[str], list[np.ndarray]]:
        """Return the entities the seeds and the question hold, each with its readable chunks.

        An entity held by more than WIDE chunks is a topic, not a link, and is left out.
        """
        ids = {self.lookup[name] for name in question if name in self.lookup}
        for position, _ in seeds:
            start, end = self.chunk_ptr[position], self.chunk_ptr[position + 1]
            ids.update(self.chunk_entities[start:end].tolist())
        entities, members = [], []
        for entity in sorted(ids):
            found = self.entity_chunks[self.entity_ptr[entity] : self.entity_ptr[entity + 1]]
            if len(found) > WIDE:
                continue
            if allowed is not None:
                found = found[allowed[found] > 0]
            if len(found):
                entities.append(self.entities[entity])
                members.append(found)
        return entities, members

    def save(self, folder: Path) -> None:
        """Write the graph into a folder (the keyword index's staging folder)."""
        np.savez(
            folder / "graph.npz",
            chunk_ptr=self.chunk_ptr,
            chunk_entities=self.chunk_entities,
        )
        (folder / "entities.json").write_text(json.dumps(self.entities, ensure_ascii=False))

    @classmethod
    def load(cls, folder: Path) -> EntityGraph | None:
        """Read a saved graph, or None if there is none (or it is unreadable)."""
        try:
            with np.load(folder / "graph.npz", allow_pickle=False) as arrays:
                parts = (arrays["chunk_ptr"], arrays["chunk_entities"])
            entities = json.loads((folder / "entities.json").read_text())
        except (OSError, ValueError, KeyError):
            return None
        return cls(list(entities), *parts)


def rank(
    seeds: Sequence[tuple[int, float]],
    question: set[str],
    entities: list[str],
    members: list[np.ndarray],
    held: Callable[[np.ndarray], np.ndarray],
    depth: int,
) -> list[Reached]:
    """Return up to `depth` chunks by personalized PageRank over a neighbourhood, best first.

    `entities` are the neighbourhood's entity keys and `members` each one's readable chunks (as
    integer positions); `seeds` the top hits as (position, weight); `question` the question's
    entity keys, which seed the walk too; `held(positions)` how many entities each chunk holds in
    all (the weight it passes to entities outside the neighbourhood is lost).
    """
    if not entities:
        return []
    owners = np.concatenate(members)
    starts = np.asarray([p for p, _ in seeds], dtype=owners.dtype)
    chunks, row = np.unique(np.concatenate([owners, starts]), return_inverse=True)
    row = row[: len(owners)]
    column = np.repeat(np.arange(len(entities)), [len(m) for m in members])
    weight_out = held(chunks).astype(float)
    holders = np.array([len(m) for m in members], dtype=float)
    start_chunks = np.zeros(len(chunks))
    for position, weight in seeds:
        start_chunks[np.searchsorted(chunks, position)] += weight
    asked = np.array([name in question for name in entities])
    start_entities = np.where(asked, 1.0 / holders, 0.0)  # a rare name says more
    if start_entities.sum() and start_chunks.sum():
        start_entities *= QUESTION_WEIGHT * start_chunks.sum() / start_entities.sum()
    total = start_chunks.sum() + start_entities.sum()
    if not total:
        return []
    start_chunks, start_entities = start_chunks / total, start_entities / total
    at_chunks, at_entities = start_chunks, start_entities
    for _ in range(STEPS):
        to_entities = np.bincount(column, at_chunks[row] / weight_out[row], len(entities))
        to_chunks = np.bincount(row, at_entities[column] / holders[column], len(chunks))
        at_chunks = DAMPING * start_chunks + (1 - DAMPING) * to_chunks
        at_entities = DAMPING * start_entities + (1 - DAMPING) * to_entities
    linked: dict[int, list[str]] = {}
    for r, c in zip(row.tolist(), column.tolist(), strict=True):
        linked.setdefault(r, []).append(entities[c])
    best = np.argsort(-at_chunks, kind="stable")[:depth]
    return [
        Reached(int(chunks[i]), float(at_chunks[i]), tuple(linked.get(int(i), ())))
        for i in best
        if at_chunks[i] > 0
    ]
