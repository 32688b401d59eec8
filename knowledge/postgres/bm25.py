"""BM25 in PostgreSQL: bm25s's Lucene scores from the postings, rare terms first.

Scores are computed at query time from raw counts (term frequencies, chunk lengths, each term's
document frequency in `kbN_df`, the collection's chunk and token counts), all moved by each
write's transaction, so they never drift from the collection and nothing is recomputed.

A term most chunks hold (a word of every chunk's header, a topic of the whole collection) has
postings as long as the collection and adds almost nothing to a score: its IDF is near zero.
So the chunks that hold one of the query's rarer terms are scored first, with every term (the
common terms' postings looked up for those chunks alone); if the most a chunk holding none of
them could score (the sum of the common terms' IDF, times how often the query writes each: a
term's saturated frequency is below 1) is below the n-th score found, those are the exact top n
(MaxScore's bound). Otherwise every chunk holding a query term is scored.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from typing import Any

from adaptive_rag.core.access import Reader
from adaptive_rag.knowledge.facets import Named
from adaptive_rag.knowledge.postgres.database import Database
from adaptive_rag.knowledge.postgres.schema import REGISTRY, Tables, readable
from adaptive_rag.knowledge.tokenizing import tokenize

K1 = 1.5
B = 0.75
"""BM25's term-frequency saturation and length normalisation (bm25s's defaults)."""
COMMON_SHARE = 0.05
"""A term held by more than this share of the chunks is scored only where a rarer one is."""
SCAN_RATIO = 20
"""A common term held by at most this many times the chunks a rare one chose has its postings
read whole; one held by more is looked up for each chosen chunk (an index probe costs about as
much as reading this many postings)."""
DEPTH = 4
"""Times n of the best scores whose chunks are read for the reader's access and the tie order
first; only when too few of them may be read is every scored chunk read."""
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
    if value is not None:
        params.update(field=value.field, value=value.value)
    rare = [term for term, df in held.items() if df <= COMMON_SHARE * size]
    common = [term for term in held if term not in rare]
    if rare:
        chunks = sum(held[term] for term in rare)  # at most this many hold a rare term
        if value is not None:
            chunks = max(1, min(value.held, chunks * value.held // size))
        scan = [term for term in common if held[term] <= SCAN_RATIO * chunks]
        probe = [term for term in common if term not in scan]
        lift = sum(weights[term] for term in probe)  # the most the probed terms add
        chosen = {"chosen": rare, "scan": scan, "probe": probe, "lift": lift}
        found = _scored(db, t, access, value, {**params, **chosen})
        bound = sum(weights[term] for term in common)
        if not common or (len(found) >= n and bound < found[n - 1][1]):
            return found
    everything = {"chosen": list(held), "scan": [], "probe": [], "lift": 0.0}
    return _scored(db, t, access, value, {**params, **everything})


def _scored(
    db: Database, t: Tables, access: str, value: Named | None, params: dict[str, Any]
) -> list[tuple[str, float]]:
    """Score the chunks holding a `chosen` term (within the value) with every query term.

    The other terms' postings are read for those chunks alone: a `scan` term's whole list is
    joined; a `probe` term, held by many more chunks than were chosen (so with a small IDF), is
    looked up chunk by chunk, and only for the chunks its weight could lift into the best
    DEPTH × n. Only those are checked against the reader's access; when too few of them may be
    read, every scored chunk is.
    """
    within = ""
    if value is not None:
        within = (
            f" AND p.chunk_id IN (SELECT chunk_id FROM {t.facets}"
            " WHERE field = %(field)s AND value = %(value)s)"
        )
    saturated = "q.weight * p.tf / (p.tf + %(k1)s * (1 - %(b)s + %(b)s * p.length / %(average)s))"
    sql = f"""WITH q(term, weight) AS (SELECT * FROM unnest(%(terms)s::text[], %(weights)s)),
    held AS (SELECT p.term, p.chunk_id, p.tf, p.length FROM {t.terms} p
             WHERE p.term = ANY(%(chosen)s::text[]){within}),
    chosen AS MATERIALIZED (SELECT DISTINCT chunk_id FROM held),
    more AS (SELECT p.term, p.chunk_id, p.tf, p.length FROM chosen h
             JOIN {t.terms} p ON p.chunk_id = h.chunk_id AND p.term = ANY(%(scan)s::text[])),
    scores AS MATERIALIZED (
        SELECT p.chunk_id, sum({saturated}) AS score
        FROM (SELECT * FROM held UNION ALL SELECT * FROM more) p JOIN q USING (term)
        GROUP BY p.chunk_id),
    best AS (SELECT score FROM scores ORDER BY score DESC LIMIT %(depth)s),
    floor AS (SELECT min(score) AS score FROM best),
    whole AS (
        SELECT s.chunk_id, s.score + coalesce(sum({saturated}), 0) AS score
        FROM scores s LEFT JOIN LATERAL (
            SELECT p.term, p.tf, p.length FROM {t.terms} p
            WHERE p.term = ANY(%(probe)s::text[]) AND p.chunk_id = s.chunk_id OFFSET 0) p ON TRUE
        LEFT JOIN q ON q.term = p.term
        WHERE s.score >= (SELECT score FROM floor) - %(lift)s GROUP BY s.chunk_id, s.score)
    SELECT w.chunk_id, w.score, (SELECT score FROM floor), (SELECT count(*) FROM scores)
    FROM whole w
    JOIN {t.chunks} c ON c.id = w.chunk_id WHERE w.score > 0 AND {access}
    ORDER BY w.score DESC, c.seq LIMIT %(n)s"""
    n = params["n"]
    rows = db.rows(sql, {**params, "depth": DEPTH * n})
    cut = not rows or rows[0][3] > DEPTH * n  # some scored chunks were left unread
    if cut and (len(rows) < n or rows[-1][1] < rows[-1][2]):  # too few of the best are read
        rows = db.rows(sql, {**params, "depth": None})
    return [(str(cid), float(score)) for cid, score, *_ in rows]
