"""The PostgreSQL store's searches: by meaning (pgvector), BM25, within named values, by graph.

Every search filters by reader inside its own query; BM25 is knowledge.postgres.bm25's.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import numpy as np
from adaptive_rag.core.access import Reader
from adaptive_rag.knowledge import facets
from adaptive_rag.knowledge.facets import Named, choose, lookup_keys, nameable
from adaptive_rag.knowledge.filters import Equalities
from adaptive_rag.knowledge.graph import WIDE, Reached, rank
from adaptive_rag.knowledge.postgres.bm25 import bm25
from adaptive_rag.knowledge.postgres.database import Database, deeper
from adaptive_rag.knowledge.postgres.schema import (
    REGISTRY,
    Tables,
    readable,
    to_json,
    vector_literal,
)
from langchain_core.embeddings import Embeddings


def containment(where: Equalities | None) -> dict[str, Any]:
    """Return equalities as one JSON object the chunks' metadata must contain (`@>`)."""
    if not where:
        return {}
    if any(key.startswith("$") or isinstance(v, dict) for key, v in where.items()):
        raise ValueError(f"only equality filters are supported here, not {where!r}")
    return dict(where)


class PostgresSearching:
    """The searches of the PostgreSQL store; the store provides the pool and its tables."""

    name: str
    _db: Database
    _t: Tables
    _embeddings: Embeddings

    def embed_query(self, query: str) -> list[float]:
        """Return the query's embedding, as vector search makes it."""
        return self._embeddings.embed_query(query)

    def _rows(
        self, sql: str, params: dict[str, Any], settings: dict[str, str] | None = None
    ) -> list[tuple[Any, ...]]:
        """Run one read (with settings of its own, if given) and return its rows."""
        return self._db.rows(sql, params, settings)

    def vector_search(
        self,
        query: str,
        n: int,
        where: Equalities | None = None,
        reader: Reader | None = None,
        vector: list[float] | None = None,
    ) -> list[tuple[str, float]]:
        """Return up to n (chunk id, cosine similarity) pairs the reader may read, best first."""
        access, params = readable(reader or Reader())
        matching = containment(where)
        vector = vector or self.embed_query(query)
        params.update(q=vector_literal(vector), n=n, where=to_json(matching))
        filtered = " AND c.metadata @> %(where)s::jsonb" if matching else ""
        rows = self._rows(
            f"SELECT c.id, 1 - (c.embedding <=> %(q)s::vector) FROM {self._t.chunks} c"
            f" WHERE {access}{filtered} ORDER BY c.embedding <=> %(q)s::vector LIMIT %(n)s",
            params,
            deeper(n),
        )
        return [(str(cid), float(score)) for cid, score in rows]

    def keyword_search(
        self, query: str, n: int, reader: Reader | None = None
    ) -> list[tuple[str, float]]:
        """Return up to n (chunk id, BM25 score) pairs the reader may read, best first."""
        return self._bm25(query, n, reader or Reader(), None)

    def _bm25(
        self, query: str, n: int, reader: Reader, value: Named | None
    ) -> list[tuple[str, float]]:
        """Return the reader's best n chunks by BM25 (within a named value if given)."""
        return bm25(self._db, self._t, self.name, query, n, reader, value)

    def keyword_search_within(
        self, query: str, n: int, reader: Reader, values: list[Named]
    ) -> list[list[tuple[str, float]]]:
        """Return, per named value, its best n chunks by BM25 that the reader may read."""
        return [self._bm25(query, n, reader, value) for value in values]

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

        A value of at most EXACT_WITHIN chunks is ranked among them all (exactly); a larger one
        is read from `nearest`, the question's own deeper search, as in the Chroma store.
        """
        found: list[list[tuple[str, float]]] = []
        for value in values:
            if value.held <= facets.EXACT_WITHIN:
                found.append(self._nearest_within(vector, value, reader, where, n))
                continue
            rows = self._rows(
                f"SELECT chunk_id FROM {self._t.facets} WHERE field = %(field)s"
                " AND value = %(value)s AND chunk_id = ANY(%(ids)s::text[])",
                {"field": value.field, "value": value.value, "ids": [c for c, _ in nearest]},
            )
            held = {str(r[0]) for r in rows}
            found.append([(c, s) for c, s in nearest if c in held][:n])
        return found

    def _nearest_within(
        self,
        vector: list[float],
        value: Named,
        reader: Reader,
        where: Equalities | None,
        n: int,
    ) -> list[tuple[str, float]]:
        """Rank a small value's chunks by cosine similarity to the query, every one compared."""
        access, params = readable(reader)
        matching = containment(where)
        params.update(
            q=vector_literal(vector),
            field=value.field,
            value=value.value,
            n=n,
            where=to_json(matching),
        )
        filtered = " AND c.metadata @> %(where)s::jsonb" if matching else ""
        rows = self._rows(
            f"SELECT c.id, 1 - (c.embedding <=> %(q)s::vector) AS cosine FROM {self._t.chunks} c"
            f" JOIN {self._t.facets} f ON f.chunk_id = c.id"
            f" WHERE f.field = %(field)s AND f.value = %(value)s AND {access}{filtered}"
            " ORDER BY cosine DESC, c.seq LIMIT %(n)s",
            params,
        )
        return [(str(cid), float(score)) for cid, score in rows]

    def named_values(self, question: str) -> list[Named]:
        """Return the values of the documents' own fields the question names (knowledge.facets)."""
        starts, days = lookup_keys(question)
        rows = self._rows(
            f"SELECT f.field, f.value, f.df, r.revision, r.chunks FROM {self._t.value_df} f"
            f" CROSS JOIN {REGISTRY} r WHERE r.name = %(name)s AND f.df > 0"
            " AND f.lookup = ANY(%(keys)s::text[])",
            {"keys": sorted(starts | days), "name": self.name},
        )
        revision = int(rows[0][3]) if rows else 0
        held = {
            (str(f), str(v)): int(c) for f, v, c, _, size in rows if nameable(str(v), int(c), size)
        }
        empty = np.empty(0, dtype=np.int64)
        return [
            Named(field, value, empty, str(revision), held[(field, value)])
            for field, value in choose(question, set(held))
        ]

    def graph_search(
        self, names: Collection[str], seeds: list[tuple[str, float]], n: int, reader: Reader
    ) -> list[tuple[str, Reached]]:
        """Return up to n chunks the entity graph ranks from the seeds (chunk id, weight).

        The neighbourhood (the entities the readable seeds and the names hold, none held by more
        than WIDE chunks, with their readable chunks) is read in two queries, the entities' own
        counts first, so a topic most chunks hold costs one row; the walk is knowledge.graph's.
        """
        access, params = readable(reader)
        t = self._t
        params.update(seeds=[c for c, _ in seeds], wide=WIDE)
        started = self._rows(
            f"SELECT c.id, c.seq, c.entity_count,"
            f" ARRAY(SELECT entity FROM {t.entities} e WHERE e.chunk_id = c.id)"
            f" FROM {t.chunks} c WHERE c.id = ANY(%(seeds)s::text[]) AND {access}",
            params,
        )
        held_by = {str(cid): (int(seq), int(count)) for cid, seq, count, _ in started}
        params["wanted"] = sorted({*names, *(e for *_, held in started for e in held)})
        rows = self._rows(
            f"""WITH narrow AS (
                SELECT entity FROM {t.entity_df} WHERE entity = ANY(%(wanted)s::text[])
                AND df BETWEEN 1 AND %(wide)s)
            SELECT x.entity, c.id, c.seq, c.entity_count FROM narrow
            JOIN {t.entities} x USING (entity) JOIN {t.chunks} c ON c.id = x.chunk_id
            WHERE {access} ORDER BY x.entity, c.seq""",
            params,
        )
        for _, cid, seq, count in rows:
            held_by[cid] = (int(seq), int(count))
        ids = sorted(held_by, key=lambda c: held_by[c][0])  # in the order they were written
        at = {cid: i for i, cid in enumerate(ids)}
        members: dict[str, list[int]] = {}
        for entity, cid, _, _ in rows:
            members.setdefault(str(entity), []).append(at[cid])
        entities = list(members)
        counts = np.asarray([held_by[c][1] for c in ids], dtype=np.int64)
        reached = rank(
            [(at[c], w) for c, w in seeds if c in at],
            set(names),
            entities,
            [np.asarray(members[e], dtype=np.int64) for e in entities],
            lambda chunks: counts[chunks],
            n,
        )
        return [(ids[r.position], r) for r in reached]
