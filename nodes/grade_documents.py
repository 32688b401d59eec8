"""Grade documents (CRAG's retrieval evaluator): a fitted judge over search signals, no model call.

The judging is `nodekit.grading` (one typed result per search); this node writes it to the state:
the sources to read in order with their probabilities, the doubted ones aside, CRAG's verdict,
and whether the search is read whole. A question routed `simple` takes the light path: only its
likely sources, never the rest of the search. Web results are not judged (they carry no search
signals) and are kept, first.
"""

from __future__ import annotations

from adaptive_rag.nodekit.calling import judged, note, progress
from adaptive_rag.nodekit.grading import grade, scored_before
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.reading import from_web
from adaptive_rag.schema.state import RESET, State
from adaptive_rag.schema.updates import Update
from adaptive_rag.services import Services


def asks_one_fact(state: State) -> bool:
    """Whether classify routed the question `simple`: the light path, that reads less."""
    route = state.get("route")
    return route is not None and route["category"] == "simple"


def grade_documents(state: State, ctx: Context, services: Services) -> Update:
    """Read the likely sources first, and the rest of a search with several of them."""
    docs = list(state.get("documents") or [])
    update: Update = {"graded": True, "read_whole": False}
    if not docs:  # documents rejected by an earlier search this turn stay on record
        update.update({"relevance": "incorrect", "doc_scores": []})
        judged(update, "grade_documents", "rule", None, "incorrect", "no documents to judge")
        return update
    searched = [d for d in docs if not from_web(d)]
    web = [d for d in docs if from_web(d)]
    question = state.get("standalone") or ""
    probe = scored_before(question, searched, state.get("probe_scores"))
    grading = grade(question, searched, ctx, services, asks_one_fact(state), probe)
    if grading.fallback:
        note(update, f"grade_documents: {grading.fallback}")
    if not grading.scores:  # no judge for these search signals, or web results only
        update.update({"relevance": "correct", "doc_scores": [1.0] * len(docs), "rejected": []})
        update["graded"] = grading.fitted
        why = grading.fallback or "web results only"
        judged(update, "grade_documents", "rule", None, "correct", why)
        return update
    kept = [(grading.scores[i], searched[i]) for i in grading.order]
    update["read_whole"] = grading.read_whole
    update["relevance"] = grading.verdict
    update["documents"] = [RESET, *web, *(d for _, d in kept)]  # search order, a chain first
    update["doc_scores"] = [1.0] * len(web) + [s for s, _ in kept]
    update["rejected"] = [searched[i] for i in grading.doubted]
    best = max(grading.scores)
    judged(update, "grade_documents", "fitted", best, grading.verdict, grading.detail)
    scores = [round(s, 3) for s in grading.scores]
    progress({"step": "grade_documents", "relevance": grading.verdict, "scores": scores})
    return update
