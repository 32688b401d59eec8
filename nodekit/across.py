"""A question asked in another language than the knowledge base's, searched again in its language.

"加班费怎么算？" over an English handbook shares no word with "Overtime", and the embedding model
ranks the Chinese pages first. classify, when its probe found no likely source and the question
is not the knowledge base's own, has it translated (one fast-model call) and searched again; what
that search finds can make the question the knowledge base's own, and a likely source found so
stands in for the probe's.
"""

from __future__ import annotations

from dataclasses import dataclass

from adaptive_rag.core.question import Owned, small_talk
from adaptive_rag.core.text import language_of
from adaptive_rag.nodekit.calling import ask, search_for
from adaptive_rag.nodekit.grading import judge_probe, judge_sources, split_kept
from adaptive_rag.nodekit.owning import owned_from
from adaptive_rag.prompts import classify as prompts
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.updates import Update
from adaptive_rag.services import Services
from langchain_core.documents import Document


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
    base's language, the translation fails or is no question, or the search finds nothing a
    judge can read.
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
    shown = owned_from(asked, *split_kept(docs, scores, keep_at))
    owned = Owned(titled=shown.titled, held=shown.held)
    why = f"{owned.why()}, asked as {asked!r}" if owned else ""
    judge_probe(update, scores, keep_at, asked)
    return Across(asked=asked, docs=docs, scores=scores, keep_at=keep_at, owned=why)
