"""Grading: one search's knowledge-base sources judged, as one typed result (no model call).

Each source gets the probability that the answer needs it (the fitted relevance judge over its
search signals, core.judges.relevance), and the best one's probability gives CRAG's verdict: correct
or incorrect. The likely sources are read first (with a multi-hop bridge the judge doubts, and
without a chain's look-alikes: `core.judges.relevance.keep_sources`); a search with several likely
sources, not incorrect, is read whole, the doubted sources after them, unless the question asks
one fact (the light path). classify's probe scores its search once; grade_documents reuses
those scores when it grades that same search, and scores afresh any other.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from adaptive_rag.core.judges import Judge, keep_sources, searched_by, source_features
from adaptive_rag.core.text import doc_key
from adaptive_rag.nodekit.calling import judged
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.updates import Update
from adaptive_rag.schema.values import Relevance, Scored
from adaptive_rag.services import Services
from langchain_core.documents import Document

READ_WHOLE = "as several are likely"
"""How grading's detail says it read the rest of a search after its likely sources."""


def crag_verdict(best: float, incorrect: float) -> Relevance:
    """Return incorrect when the best source falls below the judge's `incorrect` cut-off.

    From it the search is correct: CRAG's third verdict, `ambiguous` (the band up to the
    `correct` cut-off: refine the sources, add the web), was measured against reading the same
    searches as correct and removed (docs/decisions.md).
    """
    return "incorrect" if best < incorrect else "correct"


def reads_whole(relevance: Relevance, likely: int) -> bool:
    """Whether a search is read whole: it is not incorrect and several of its sources are likely.

    Several likely sources mean the answer may span documents, and one it needs is often among
    those the judge doubts; with one likely source, the doubted ones are left out.
    """
    return relevance != "incorrect" and likely >= 2


def judge_sources(
    question: str,
    searched: list[Document],
    ctx: Context,
    services: Services,
    scored: list[float] | None = None,
) -> tuple[Judge | None, list[float], str]:
    """Return the judge for these knowledge-base sources, each one's probability, and why.

    The why is "" for the full judge, else why another (or none) serves; no judge, or no
    source, gives no probabilities. `scored`: the probabilities already computed for this
    question and these sources (classify's probe, `scored_before`), returned, not computed again.
    """
    judge, fallback = services.relevance_for(ctx, searched_by([d.metadata for d in searched]))
    if judge is None or not searched:
        return judge, [], fallback
    if scored:
        return judge, list(scored), fallback
    features = source_features(question, [(d.page_content, d.metadata) for d in searched])
    return judge, [judge.probability(values) for values in features], fallback


def split_kept(
    docs: list[Document], scores: list[float], keep_at: float
) -> tuple[list[Document], list[Document]]:
    """Return the sources a judge keeps (p at least `keep_at`) and those it doubts, in order."""
    kept = [d for d, p in zip(docs, scores, strict=True) if p >= keep_at]
    doubted = [d for d, p in zip(docs, scores, strict=True) if p < keep_at]
    return kept, doubted


def judge_probe(update: Update, scores: list[float], keep_at: float, asked: str = "") -> None:
    """Record classify's verdict on a search: whether its best source is likely, and why.

    `asked`: the question as searched, when it is not the one asked (its translation).
    """
    best = max(scores)
    verdict = "in the knowledge base" if best >= keep_at else "not in the knowledge base"
    detail = f"best source p {best:.2f} ({keep_at:.2f} kept)"
    judged(
        update,
        "classify",
        "fitted",
        best,
        verdict,
        f"asked as {asked!r}: {detail}" if asked else detail,
    )


@dataclass(frozen=True)
class Grading:
    """What grading found of one search's knowledge-base sources."""

    verdict: Relevance
    """CRAG's verdict from the best source's probability."""
    scores: list[float]
    """Each source's probability, in search order (empty when no judge serves)."""
    order: list[int]
    """The sources to read, by search position: the likely ones (a chain first), then the rest
    when the search is read whole."""
    read_whole: bool
    """Several likely sources: the search is read whole and written without `assess`."""
    fitted: bool
    """A fitted judge scored the sources (False: kept unjudged, see `fallback`)."""
    fallback: str = ""
    """Why another judge, or none, served ('' for the full judge)."""
    detail: str = ""
    """What was kept and why, for people (diagnostics' judgments)."""
    doubted: list[int] = field(default_factory=list)
    """The sources left out, by search position."""


def fingerprint(doc: Document) -> str:
    """Identify a source with what the judge reads of it: its text and its search signals.

    The same chunk found by another search (a rewritten query) has other signals, so another
    fingerprint; the fingerprint is the same in any process (a run resumed on another worker).
    """
    signals = sorted(
        (k, v) for k, v in (doc.metadata or {}).items() if isinstance(v, str | int | float | bool)
    )
    digest = hashlib.sha256(json.dumps([doc.page_content, signals]).encode()).hexdigest()
    return f"{doc_key(doc)}#{digest[:16]}"


def scored_before(question: str, searched: list[Document], probe: Scored | None) -> list[float]:
    """Return the scores classify's probe gave these very sources for this question, or []."""
    if probe is None or probe["query"] != question:
        return []
    if probe["keys"] != [fingerprint(d) for d in searched]:
        return []
    return list(probe["scores"])


def grade(
    question: str,
    searched: list[Document],
    ctx: Context,
    services: Services,
    one_fact: bool,
    scored: list[float] | None = None,
) -> Grading:
    """Judge a search's knowledge-base sources and choose what to read.

    `one_fact`: the question was routed `simple`, so a search read whole still reads only its
    likely sources (the light path). `scored`: the sources' probabilities already computed for
    this question (`judge_sources`).
    """
    judge, scores, fallback = judge_sources(question, searched, ctx, services, scored)
    everything = list(range(len(searched)))
    if judge is None or not searched:
        return Grading("correct", [], everything, False, judge is not None, fallback)
    keep_at = judge.thresholds.get("keep", 0.5)
    trusted = judge.thresholds.get("correct", 0.5)
    verdict = crag_verdict(max(scores), judge.thresholds.get("incorrect", trusted))
    chosen = keep_sources(question, [d.page_content for d in searched], scores, keep_at, trusted)
    above = sum(s >= keep_at for s in scores)
    detail = f"kept {len(chosen.order)} of {len(searched)} sources"
    if chosen.why:
        detail += f" ({above} at p >= {keep_at:.2f}), with {chosen.why}"
    else:
        detail += f" at p >= {keep_at:.2f}"
    if chosen.aside:
        listed = ", ".join(str(i + 1) for i in chosen.aside)
        plural = "s" if len(chosen.aside) > 1 else ""
        detail += f"; left out, as holding none of their names: search result{plural} {listed}"
    rest = [i for i in everything if i not in chosen.order and i not in chosen.aside]
    order = list(chosen.order)
    whole = reads_whole(verdict, len(chosen.order))
    if whole and rest and one_fact:
        detail += f"; the other {len(rest)} left out, as the question asks one fact"
    elif whole and rest:
        order = [*order, *rest]
        detail += f"; the other {len(rest)} read after them, {READ_WHOLE}"
    doubted = [i for i in everything if i not in order]
    return Grading(verdict, scores, order, whole, True, fallback, detail, doubted)
