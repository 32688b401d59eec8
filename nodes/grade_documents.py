"""Grade documents (CRAG's retrieval evaluator): a fitted judge over search signals, no model call.

Each knowledge-base source gets the probability that the answer needs it (core.relevance), and
the best one's probability gives CRAG's verdict: correct or incorrect. The likely
sources are read first; a search with several of them, not judged incorrect, is read whole
(`reads_whole`), otherwise the doubted sources are left out. A question routed `simple` takes the
light path: only its likely sources, never the rest of the search. Web results are not judged
(they carry no search signals) and are kept.
"""

from __future__ import annotations

from adaptive_rag.core.fitted import Judge
from adaptive_rag.core.relevance import keep_sources, searched_by, source_features
from adaptive_rag.nodes.calling import judged, note
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.reading import from_web
from adaptive_rag.schema.run_context import context_of
from adaptive_rag.schema.state import RESET, State
from adaptive_rag.schema.updates import Update
from adaptive_rag.schema.values import Relevance
from adaptive_rag.services import Services
from langchain_core.documents import Document
from langgraph.runtime import Runtime


def crag_verdict(best: float, correct: float) -> Relevance:
    """Return correct when the best source reaches the judge's `correct` cut-off, else incorrect.

    CRAG's third verdict, `ambiguous` (refine the sources, add the web), was measured against
    reading the same searches as correct and removed (docs/decisions.md).
    """
    return "correct" if best >= correct else "incorrect"


READ_WHOLE = "as several are likely"
"""How grade_documents' judgment says it read the rest of a search after its likely sources."""


def reads_whole(relevance: Relevance, likely: int) -> bool:
    """Whether a search is read whole: it is not incorrect and several of its sources are likely.

    Several likely sources mean the answer may span documents, and one it needs is often among
    those the judge doubts; with one likely source, the doubted ones are left out. A chain's
    look-alikes (`core.relevance.keep_sources`) stay out either way. A question classify routed
    `simple` asks one fact: its likely sources are read, never the rest (`asks_one_fact`).
    """
    return relevance != "incorrect" and likely >= 2


def asks_one_fact(state: State) -> bool:
    """Whether classify routed the question `simple`: the light path, that reads less."""
    route = state.get("route")
    return route is not None and route["category"] == "simple"


def judge_sources(
    question: str, searched: list[Document], ctx: Context, services: Services
) -> tuple[Judge | None, list[float], str]:
    """Return the judge for these knowledge-base sources, each one's probability, and why.

    The why is "" for the full judge, else why another (or none) serves; no judge, or no
    source, gives no probabilities.
    """
    judge, fallback = services.relevance_for(ctx, searched_by([d.metadata for d in searched]))
    if judge is None or not searched:
        return judge, [], fallback
    features = source_features(question, [(d.page_content, d.metadata) for d in searched])
    return judge, [judge.probability(values) for values in features], fallback


def grade_documents(state: State, runtime: Runtime[Context], services: Services) -> Update:
    """Read the likely sources first, and the rest of a search with several of them."""
    ctx = context_of(runtime)
    docs = list(state.get("documents") or [])
    update: Update = {"steps": "grade_documents", "graded": True, "read_whole": False}
    if not docs:  # documents rejected by an earlier search this turn stay on record
        update.update({"relevance": "incorrect", "doc_scores": []})
        judged(update, "grade_documents", "rule", None, "incorrect", "no documents to judge")
        return update
    searched = [d for d in docs if not from_web(d)]
    web = [d for d in docs if from_web(d)]
    question = state.get("standalone") or ""
    judge, scores, fallback = judge_sources(question, searched, ctx, services)
    if fallback:
        note(update, f"grade_documents: {fallback}")
    if judge is None or not searched:
        update.update({"relevance": "correct", "doc_scores": [1.0] * len(docs), "rejected": []})
        update["graded"] = judge is not None
        judged(update, "grade_documents", "rule", None, "correct", fallback or "web results only")
        return update
    keep_at = judge.thresholds.get("keep", 0.5)
    trusted = judge.thresholds.get("correct", 0.5)
    relevance = crag_verdict(max(scores), trusted)
    texts = [d.page_content for d in searched]
    chosen = keep_sources(question, texts, scores, keep_at, trusted)
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
    rest = [i for i in range(len(searched)) if i not in chosen.order and i not in chosen.aside]
    order = chosen.order
    one_fact = asks_one_fact(state)
    whole = reads_whole(relevance, len(chosen.order))
    if whole and rest and one_fact:
        detail += f"; the other {len(rest)} left out, as the question asks one fact"
    elif whole and rest:
        order = [*order, *rest]
        detail += f"; the other {len(rest)} read after them, {READ_WHOLE}"
    update["read_whole"] = whole
    kept = [(scores[i], searched[i]) for i in order]
    update["relevance"] = relevance
    update["documents"] = [RESET, *web, *(d for _, d in kept)]  # search order, a chain first
    update["doc_scores"] = [1.0] * len(web) + [s for s, _ in kept]
    update["rejected"] = [d for i, d in enumerate(searched) if i not in order]
    judged(update, "grade_documents", "fitted", max(scores), relevance, detail)
    runtime.stream_writer(
        {"step": "grade_documents", "relevance": relevance, "scores": [round(s, 3) for s in scores]}
    )
    return update
