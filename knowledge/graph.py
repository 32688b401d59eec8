"""The entity graph: chunks linked through the entities they share (core.entities), no model.

Each chunk's entities are stored on the chunk in its collection (metadata `entities`), so every
process that opens the collection, embedded or on a Chroma server, reads the same graph. This
module holds what is derived from them per revision, beside the BM25 index: the chunk -> entity
and entity -> chunk adjacency as compressed sparse rows (numpy only), saved with the index.

The walk is one step of personalized PageRank from the top hits, chunk -> entity -> chunk: each
seed passes its weight to its entities and each entity to the chunks that hold it, divided by how
many sections hold it (a name in two sections links them strongly; a topic in fifty, hardly).
Entities the question names are left out (search already finds their chunks: the walk is for the
chunk that names what the question does not: the bridge), and so are entities held by more than
`SPECIFIC` sections. Only chunks the reader may read are counted, reached or returned.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

SPECIFIC = 2
"""An entity links chunks when at most this many sections (that the reader may read) hold it."""
WIDE = 64
"""An entity held by more chunks than this is a topic, not a link: never walked (a cost bound)."""


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
        sections: np.ndarray,
    ) -> None:
        self.entities = entities
        self.lookup = {name: i for i, name in enumerate(entities)}
        self.chunk_ptr = chunk_ptr
        self.chunk_entities = chunk_entities
        self.sections = sections
        order = np.argsort(chunk_entities, kind="stable")
        owners = np.repeat(np.arange(len(chunk_ptr) - 1), np.diff(chunk_ptr))
        self.entity_chunks = owners[order].astype(np.int32)
        counts = np.bincount(chunk_entities, minlength=len(entities))
        self.entity_ptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)

    @classmethod
    def build(cls, per_chunk: Sequence[Sequence[str]], sections: Sequence[str]) -> EntityGraph:
        """Index each chunk's entity keys; `sections` names each chunk's section (its parent)."""
        lookup: dict[str, int] = {}
        ptr = [0]
        flat: list[int] = []
        for names in per_chunk:
            flat.extend(lookup.setdefault(name, len(lookup)) for name in dict.fromkeys(names))
            ptr.append(len(flat))
        section_ids: dict[str, int] = {}
        section = [section_ids.setdefault(s, len(section_ids)) for s in sections]
        return cls(
            list(lookup),
            np.asarray(ptr, dtype=np.int64),
            np.asarray(flat, dtype=np.int32),
            np.asarray(section, dtype=np.int32),
        )

    def __len__(self) -> int:
        return len(self.chunk_ptr) - 1

    def edges(self) -> int:
        """Return how many chunk-entity edges the graph holds."""
        return len(self.chunk_entities)

    def nbytes(self) -> int:
        """Return the size of the adjacency arrays (the entity names not counted)."""
        arrays = (self.chunk_ptr, self.chunk_entities, self.sections)
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
    ) -> list[Reached]:
        """Return the chunks one step from the seeds reaches, best first (seeds left out).

        `seeds` are the top hits as (position, weight); `question` holds the question's entity
        keys: no step goes through one, and no chunk holding one is returned (search finds
        those). `allowed` is a 0/1 weight per position (who may read it), None for all.
        """
        scores: dict[int, float] = {}
        links: dict[int, list[str]] = {}
        sections = {int(self.sections[p]) for p, _ in seeds}
        named = {self.lookup[n] for n in question if n in self.lookup}
        for position, weight in seeds:
            start, end = self.chunk_ptr[position], self.chunk_ptr[position + 1]
            for entity in self.chunk_entities[start:end].tolist():
                name = self.entities[entity]
                members = None if name in question else self._members(entity, allowed)
                if members is None:
                    continue
                held = len(np.unique(self.sections[members]))
                for member in members.tolist():
                    if int(self.sections[member]) in sections or self._names(member, named):
                        continue  # a seed's section, or a chunk search finds by the question's name
                    scores[member] = scores.get(member, 0.0) + weight / held
                    links.setdefault(member, []).append(name)
        ranked = sorted(scores.items(), key=lambda pair: (-pair[1], pair[0]))
        return [Reached(p, s, tuple(dict.fromkeys(links[p]))) for p, s in ranked]

    def _names(self, position: int, entities: set[int]) -> bool:
        """Whether the chunk at a position holds one of these entity ids."""
        start, end = self.chunk_ptr[position], self.chunk_ptr[position + 1]
        return bool(entities) and not entities.isdisjoint(self.chunk_entities[start:end].tolist())

    def _members(self, entity: int, allowed: np.ndarray | None) -> np.ndarray | None:
        """Return the readable chunks holding an entity, None when it is too common to link."""
        members = self.entity_chunks[self.entity_ptr[entity] : self.entity_ptr[entity + 1]]
        if len(members) > WIDE:
            return None
        if allowed is not None:
            members = members[allowed[members] > 0]
        held = len(np.unique(self.sections[members]))
        return members if 1 < held <= SPECIFIC else None

    def save(self, folder: Path) -> None:
        """Write the graph into a folder (the keyword index's staging folder)."""
        np.savez(
            folder / "graph.npz",
            chunk_ptr=self.chunk_ptr,
            chunk_entities=self.chunk_entities,
            sections=self.sections,
        )
        (folder / "entities.json").write_text(json.dumps(self.entities, ensure_ascii=False))

    @classmethod
    def load(cls, folder: Path) -> EntityGraph | None:
        """Read a saved graph, or None if there is none (or it is unreadable)."""
        try:
            with np.load(folder / "graph.npz", allow_pickle=False) as arrays:
                parts = (arrays["chunk_ptr"], arrays["chunk_entities"], arrays["sections"])
            entities = json.loads((folder / "entities.json").read_text())
        except (OSError, ValueError, KeyError):
            return None
        return cls(list(entities), *parts)
