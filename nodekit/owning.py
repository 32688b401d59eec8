"""Whether a turn's question is about the knowledge base's own things (core.question), from state.

classify decides it first, from its probe's documents (and, for a question asked in another
language than the knowledge base's, from a search in that language: nodekit.across); the nodes
that come later (answer_general, self_check) read that verdict and add what their own documents
show, so a question the probe could not tie to the knowledge base is still tied by the documents
a later search kept.
"""

from __future__ import annotations

from collections.abc import Sequence

from adaptive_rag.core.question import Owned, Searched, owned_by, small_talk
from adaptive_rag.core.text import language_of
from adaptive_rag.knowledge.sources import title_of
from adaptive_rag.schema.reading import from_web
from adaptive_rag.schema.state import State
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


def owned_from(question: str, kept: Sequence[Document], doubted: Sequence[Document]) -> Owned:
    """Return why a question is the knowledge base's own (empty when not, or small talk)."""
    if not question or small_talk(question):
        return Owned()
    found = [*searched(kept, True), *searched(doubted, False)]
    return owned_by(question, found, language_of(question))


def why_owned(question: str, kept: Sequence[Document], doubted: Sequence[Document]) -> str:
    """Say why a question is the knowledge base's own ('' when it is not, or is small talk)."""
    return owned_from(question, kept, doubted).why()


def owned_now(state: State) -> str:
    """Return why the turn's question is the knowledge base's own: classify's verdict, or now."""
    earlier = state.get("owned") or ""
    if earlier:
        return earlier
    question = state.get("standalone") or ""
    return why_owned(question, state.get("documents") or [], state.get("rejected") or [])
