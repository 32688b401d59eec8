"""BM25 in PostgreSQL: bm25s's Lucene scores from the postings, rare terms first.

Scores are computed at query time from raw counts (term frequencies, chunk lengths, each term's
document frequency in `kbN_df`, the collection's chunk and token counts), all moved by each
write's transaction, so they never drift from the collection and nothing is recomputed.

A term most chunks hold (a word of every chunk's header, a topic of the whole collection) has
postings as long as the collection and adds almost nothing to a score: its IDF is near zero.
So the chunks that hold one of the query's rarer terms are scored first, with every term; if the
most a chunk holding none of them could score (the sum of the common terms' IDF, times how often
the query writes each: a term's saturated frequency is below 1) is below the n-th score found,
those are the exact top n (MaxScore's bound). Otherwise every posting is scored.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from typing import Any

from adaptive_rag.core.access import Reader
from adaptive_rag.knowledge.facets import Named
from adaptive_rag.knowledge.keyword import tokenize
from adaptive_rag.knowledge.postgres.database import Database
from adaptive_rag.knowledge.postgres.schema import REGISTRY, Tables, readable

K1 = 1.5
B = 0.75
"""BM25's term-frequency saturation and length normalisation (bm25s's defaults)."""
COMMON_SHARE = 0.05
"""A term held by more than this share of the chunks is scored only where a rarer one is."""
LONGEST_TERM = 200
"""Bytes of a term kept as written; a longer one (a run of a script without spaces) is keyed
by its hash, at ingest and at query alike, so it still matches itself (btree keys are bounded)."""


def term_key(term: str) -> str:
    """Return how a term is stored: as written, or by its hash when longer than LONGEST_TERM."""
    if len(term.encode()) <= LONGEST_TERM:
        return term
    return "#" + hashlib.sha256(term.encode()).hexdigest()


def bm25(
    db: Database, t: Tables, name: str, query: str, n: int, reader: Reader, value: Named | None
) -> list[tuple[str, float]]:
    """Return the reader's best n chunks for the query by BM25 (within a named value if given)."""
    counts = Counter(term_key(w) for w in tokenize(query))  # twice written, twice counted
    if not counts or n <= 0:
        return []
    rows = db.rows(
        f"SELECT r.chunks, r.tokens, d.term, d.df FROM {REGISTRY} r"
        f" LEFT JOIN {t.df} d ON d.term = ANY(%s::text[]) AND d.df > 0 WHERE r.name = %s",
        (list(counts), name),
    )
    size = int(rows[0][0]) if rows else 0
    held = {str(term): int(df) for _, _, term, df in rows if term is not None}
    if not size or not held:
        return []
    idf = {term: math.log(1 + (size - df + 0.5) / (df + 0.5)) for term, df in held.items()}
    weights = {term: counts[term] * idf[term] for term in held}
    access, params = readable(reader)
    params.update(
        terms=list(weights),
        weights=list(weights.values()),
        average=max(int(rows[0][1]) / size, 1e-9),
        k1=K1,
        b=B,
        n=n,
    )
    within = ""
    if value is not None:
        within = (
            f" AND c.id IN (SELECT chunk_id FROM {t.facets}"
            " WHERE field = %(field)s AND value = %(value)s)"
        )
        params.update(field=value.field, value=value.value)
    rare = [term for term, df in held.items() if df <= COMMON_SHARE * size]
    if rare and len(rare) < len(held):
        found = _scored(db, t, access, within, {**params, "rare": rare})
        floor = found[n - 1][1] if len(found) >= n else 0.0
        if sum(w for term, w in weights.items() if term not in rare) < floor:
            return found
    return _scored(db, t, access, within, params)


def _scored(
    db: Database, t: Tables, access: str, within: str, params: dict[str, Any]
) -> list[tuple[str, float]]:
    """Score the postings (of the chunks holding a `rare` term, if given); return the best n."""
    among = ""
    if "rare" in params:  # read first, so the plan never walks a common term's postings
        held = db.rows(
            f"SELECT DISTINCT chunk_id FROM {t.terms} WHERE term = ANY(%s::text[])",
            (params["rare"],),
        )
        params = {**params, "among": [str(r[0]) for r in held]}
        among = " AND p.chunk_id = ANY(%(among)s::text[])"
    rows = db.rows(
        f"""WITH q(term, weight) AS (SELECT * FROM unnest(%(terms)s::text[], %(weights)s)),
        s AS (SELECT p.chunk_id,
                     sum(q.weight * p.tf / (p.tf + %(k1)s * (1 - %(b)s + %(b)s * p.length
                                                              / %(average)s))) AS score
              FROM {t.terms} p JOIN q USING (term)
              WHERE p.term = ANY(%(terms)s::text[]){among} GROUP BY p.chunk_id)
        SELECT s.chunk_id, s.score FROM s JOIN {t.chunks} c ON c.id = s.chunk_id
        WHERE {access}{within} ORDER BY s.score DESC, c.seq LIMIT %(n)s""",
        params,
    )
    return [(str(cid), float(score)) for cid, score in rows if score > 0]
