"""Whether a turn's question is about the knowledge base's own things (core.question), from state.

classify decides it first, from its probe's documents (and, for a question asked in another
language than the knowledge base's that its probe found no likely source for, from a search in
that language: `owned_across`); the nodes that come later (answer_general, self_check) read that
verdict and add what their own documents show, so a question the probe could not tie to the
knowledge base is still tied by the documents a later search kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Across:
    """A question searched again in the knowledge base's language, and what that search found."""

    asked: str
    """The question as the fast model put it in the knowledge base's language."""
    docs: list[Document]
    scores: list[float]
    """The relevance judge's probability for each of `docs`, read against `asked`."""
    keep_at: float
    owned: str
    """Why the documents found make the question the knowledge base's own ('' when they do not)."""

    @property
    def likely(self) -> bool:
        """Whether the search found a likely source: the knowledge base holds the question."""
        return any(p >= self.keep_at for p in self.scores)


def search_across(
    question: str, language: str, ctx: Context, services: Services, update: Update
) -> Across | None:
    """Search a question again in the knowledge base's language, when it was asked in another.

    "加班费怎么算？" shares no word with "Working Hours and Attendance > Overtime", and its search
    finds the Chinese pages. Asked again in the knowledge base's language (one fast-model call,
    in a lane of its own), its search and the relevance judge read the pages in their own words.
    Only what the documents show makes it the knowledge base's own then (a title, a rare name
    held): the asker's own words were read as asked. None when the question is in the knowledge
    base's language, or the translation fails or is no question.
    """
    into = services.main_language(ctx)
    if into not in prompts.LANGUAGES or into == language or small_talk(question):
        return None
    then = "the question searched as asked only"
    messages = prompts.translation(question, into)
    text = ask(update, "classify", lambda c: services.fast(c, "translate"), ctx, messages, then)
    asked = " ".join((text or "").strip().strip("\"'“”「」").split())
    asks = question.rstrip().endswith(("?", "？")) <= asked.endswith(("?", "？"))
    if not asked or asked == question or language_of(asked) != into or not asks:
        return None  # a reply that answers ("CPU stands for …") is no translation
    probed = update.get("retrievals")  # the probe's search, which this one is counted beside
    docs = search_for(update, "classify", services, ctx, asked, then=None) or []
    if isinstance(probed, int) and docs:
        update["retrievals"] = probed + 1
    judge, scores, _ = judge_sources(asked, docs, ctx, services)
    if judge is None or not scores:
        return None
    keep_at = judge.thresholds.get("keep", 0.5)
    found = [
        *searched([d for d, p in zip(docs, scores, strict=True) if p >= keep_at], True),
        *searched([d for d, p in zip(docs, scores, strict=True) if p < keep_at], False),
    ]
    shown = owned_by(asked, found, into)
    owned = Owned(titled=shown.titled, held=shown.held)
    why = f"{owned.why()}, asked as {asked!r}" if owned else ""
    best = max(scores)
    verdict = "in the knowledge base" if best >= keep_at else "not in the knowledge base"
    detail = f"asked as {asked!r}: best source p {best:.2f} ({keep_at:.2f} kept)"
    judged(update, "classify", "fitted", best, verdict, detail)
    return Across(asked=asked, docs=docs, scores=scores, keep_at=keep_at, owned=why)
