"""Whether a turn's question is about the knowledge base's own things (core.question), from state.

classify decides it first, from its probe's documents (and, for a question asked in another
language than the knowledge base's that its probe found no likely source for, from a search in
that language: `owned_across`); the nodes that come later (answer_general, self_check) read that
verdict and add what their own documents show, so a question the probe could not tie to the
knowledge base is still tied by the documents a later search kept.
"""

from __future__ import annotations

from collections.abc import Sequence

from adaptive_rag.core.question import Owned, Searched, owned_by, small_talk
from adaptive_rag.core.text import language_of
from adaptive_rag.knowledge.sources import title_of
from adaptive_rag.nodekit.calling import ask, judged, search_for
from adaptive_rag.nodekit.grading import judge_sources
from adaptive_rag.prompts import classify as prompts
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.reading import from_web
from adaptive_rag.schema.state import State
from adaptive_rag.schema.updates import Update
from adaptive_rag.services import Services
from langchain_core.documents import Document


def searched(docs: Sequence[Document], kept: bool) -> list[Searched]:
    """Return knowledge-base documents as ownership reads them (web results are nobody's own)."""
    return [
        Searched(
            title=" > ".join(p for p in (title_of(d), str(d.metadata.get("section") or "")) if p),
            text=d.page_content,
            kept=kept,
        )
        for d in docs
        if not from_web(d)
    ]


def why_owned(question: str, kept: Sequence[Document], doubted: Sequence[Document]) -> str:
    """Say why a question is the knowledge base's own ('' when it is not, or is small talk)."""
    if not question or small_talk(question):
        return ""
    found = [*searched(kept, True), *searched(doubted, False)]
    return owned_by(question, found, language_of(question)).why()


def owned_now(state: State) -> str:
    """Return why the turn's question is the knowledge base's own: classify's verdict, or now."""
    earlier = state.get("owned") or ""
    if earlier:
        return earlier
    question = state.get("standalone") or ""
    return why_owned(question, state.get("documents") or [], state.get("rejected") or [])


def owned_across(
    question: str, language: str, ctx: Context, services: Services, update: Update
) -> str:
    """Say why a question asked in another language than the knowledge base's is its own ('').

    "加班费怎么算？" shares no word with "Working Hours and Attendance > Overtime", and its search
    finds the Chinese pages. Asked again in the knowledge base's language (one fast-model call),
    its search and the relevance judge read the pages in their own words. Only what the
    documents show counts then (a title, a rare name held, what applies to the asker with a
    source kept): the asker's own words were read as asked.
    """
    into = services.main_language(ctx)
    if into not in prompts.LANGUAGES or into == language or small_talk(question):
        return ""
    then = "ownership read from the question as asked"
    text = ask(update, "classify", services.router, ctx, prompts.translation(question, into), then)
    asked = " ".join((text or "").strip().strip("\"'“”「」").split())
    if not asked or asked == question or language_of(asked) != into:
        return ""
    probed = update.get("retrievals")  # the probe's search, which this one is counted beside
    docs = search_for(update, "classify", services, ctx, asked, then=None)
    if isinstance(probed, int):
        update["retrievals"] = probed + 1
    judge, scores, _ = judge_sources(asked, docs or [], ctx, services)
    if judge is None or not scores:
        return ""
    keep_at = judge.thresholds.get("keep", 0.5)
    found = [
        *searched([d for d, p in zip(docs or [], scores, strict=True) if p >= keep_at], True),
        *searched([d for d, p in zip(docs or [], scores, strict=True) if p < keep_at], False),
    ]
    shown = owned_by(asked, found, into)
    owned = Owned(applies=shown.applies, titled=shown.titled, held=shown.held)
    if not owned:
        return ""
    why = f"{owned.why()}, asked as {asked!r}"
    judged(update, "classify", "fitted", max(scores), "owned across languages", why)
    return why
