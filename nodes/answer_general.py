"""Answer general: a question the documents do not answer, from the model's own knowledge.

Reached where the turn would decline because its search found nothing that answers it, where a
search found nothing relevant and the web is off (before searching again, rewritten), and where
classify sends a question the model calls general knowledge. It asks the model with no document
shown, and keeps the answer, labelled, unless the question is about the knowledge base's own
things (core.question.owned: only its documents could answer it), names what general text rarely
does (a name the documents searched hold, unless the question asks what a term they only use
means, or one thing, "Kestrel K2", nothing holds: a rare term, "RFID", is the model's to know), or
the model is unsure of its answer (core.judges.general).
Otherwise the decline stands; before any search, the question is looked up, and after a search
graded incorrect it is searched again, rewritten (graph.edges).
"""

from __future__ import annotations

from adaptive_rag.core.judges import (
    SURE_FROM,
    common_definition,
    defines_terms,
    features,
    rare_names,
    sure,
)
from adaptive_rag.core.text import language_of, tidy
from adaptive_rag.nodekit.calling import ask_streamed, judged
from adaptive_rag.nodekit.owning import owned_now
from adaptive_rag.prompts import answer_general as prompts
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.state import State
from adaptive_rag.schema.updates import Update
from adaptive_rag.schema.values import JudgeMethod, Route
from adaptive_rag.services import Services


def answer_general(state: State, ctx: Context, services: Services) -> Update:
    """Answer from the model's knowledge, labelled; or leave the decline (or the search) to run."""
    question = state.get("standalone") or ""
    language = state.get("language") or language_of(question)
    update: Update = {"general_tried": True}
    owned = owned_now(state)
    if owned:  # only the documents could answer it: the decline stands, or it is looked up
        update["owned"] = owned
        _not_general(state, update, "owned", None, owned)
        return update
    searched = [*(state.get("documents") or []), *(state.get("rejected") or [])]
    texts = [f"{d.metadata.get('title') or ''}\n{d.page_content}" for d in searched]
    rare = rare_names(question, texts, language)
    if rare.proper or rare.held and not defines_terms(question, language):
        # a rare name held, or one thing nothing holds, is not the model's; the meaning of a term
        # a page only uses ("What is MFA?") is
        _not_general(state, update, "specific", None, rare.why())
        return update
    messages = prompts.messages(question, language)
    reply = ask_streamed(update, "answer_general", services.chat, ctx, messages, "not answered")
    answer = tidy(reply.text).strip() if reply else ""
    logprob = reply.logprob if reply else None
    if not answer:
        _not_general(state, update, "no answer", logprob, "the model wrote no answer")
        return update
    known, method, score, detail = _known(question, answer, logprob, language, ctx, services)
    if not known:
        _not_general(state, update, "unsure", score, detail, method)
        return update
    judged(update, "answer_general", method, score, "general", detail)
    label = prompts.LABEL[language]
    update.update(
        {
            "answer": f"{answer}\n\n{label}",
            "notices": [label],
            "sources": [],
            "mode": "direct",
            "decline": None,
            "check": None,
            "best_answer": "",
            "best_score": -1,
            "answer_id": reply.message_id or "" if reply else "",
            "answer_logprob": logprob,
            "generations": 1,
        }
    )
    return update


def _known(
    question: str,
    answer: str,
    logprob: float | None,
    language: str,
    ctx: Context,
    services: Services,
) -> tuple[bool, JudgeMethod, float | None, str]:
    """Return whether the model knows its answer, how that was judged, its score, and why."""
    if common_definition(question, language):
        return True, "rule", logprob, "defines terms general text uses often"
    judge, fallback = services.general_judge_for(ctx)
    if judge is None:  # another model's log-probabilities: the rule reads them
        shown = "unknown" if logprob is None else f"{logprob:.2f}"
        detail = f"mean token log-probability {shown} (from {SURE_FROM:.2f} sure; {fallback})"
        return sure(logprob), "rule", logprob, detail
    probability = judge.probability(features(question, answer, logprob, language == "zh"))
    at = judge.thresholds.get("answer", 0.5)
    return probability >= at, "fitted", probability, f"p={probability:.2f} right (from {at:.2f})"


def _not_general(
    state: State,
    update: Update,
    verdict: str,
    score: float | None,
    detail: str,
    method: JudgeMethod = "rule",
) -> None:
    """Keep the decline; a question not searched yet is looked up instead (retrieve when unsure).

    A question already searched and graded keeps its route: its search goes on (graph.edges).
    """
    judged(update, "answer_general", method, score, verdict, detail)
    if not state.get("decline") and not state.get("relevance"):
        reason = f"not answered from general knowledge ({verdict}), so looked up"
        update["route"] = Route(category="simple", reason=reason, method="rule")
