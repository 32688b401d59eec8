"""Services: turn a run's Context into the clients nodes call (models, knowledge base, web)."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from adaptive_rag.core.cache import LRUCache
from adaptive_rag.core.judges import Judge, SearchedBy, answer_judge, general_judge, relevance_judge
from adaptive_rag.core.text import CJK
from adaptive_rag.providers.chat import load_chat_model, resolve_model_spec
from adaptive_rag.providers.web import WebSearch, default_web_search
from adaptive_rag.schema.context import Context
from langchain_core.language_models import BaseChatModel
from langchain_core.retrievers import BaseRetriever

if TYPE_CHECKING:
    from adaptive_rag.knowledge.answer_cache import Answers
    from adaptive_rag.knowledge.interface import CachedAnswers, KnowledgeStore
    from adaptive_rag.schema.knowledge import KnowledgeContext


class RetrieverUnavailableError(RuntimeError):
    """No knowledge base can be searched (none configured, or its store is down)."""

    failure_kind = "knowledge_base_unavailable"
    """How a node reports it (core.failures)."""


Opener = Callable[["KnowledgeContext"], "KnowledgeStore"]
"""Opens the knowledge base a knowledge-graph run's settings name (the knowledge graph's nodes)."""

_OPEN: dict[tuple[str, ...], Any] = {}
_OPEN_LOCK = threading.Lock()


def open_knowledge_base(
    kb_path: str, collection: str, embedding_model: str, create: bool = False
) -> KnowledgeStore:
    """Return a knowledge base, opened once per process: the agent and the knowledge graph share it.

    `create` makes a missing collection (the knowledge graph's first write); the agent never does.
    Raises KnowledgeBaseError when it cannot be opened.
    """
    from adaptive_rag.knowledge.opening import open_store

    key = (
        kb_path,
        collection,
        embedding_model,
        os.environ.get("CHROMA_HOST", ""),
        os.environ.get("CHROMA_PORT", ""),
        os.environ.get("KNOWLEDGE_URI", ""),
    )
    with _OPEN_LOCK:
        if key not in _OPEN:
            _OPEN[key] = open_store(kb_path, collection, embedding_model, create=create)
        kb: KnowledgeStore = _OPEN[key]
        return kb


def default_retriever(ctx: Context) -> BaseRetriever:
    """Return hybrid search over the context's knowledge base (opened once per process)."""
    from adaptive_rag.knowledge.errors import KnowledgeBaseError
    from adaptive_rag.knowledge.retriever import HybridRetriever

    try:
        kb = open_knowledge_base(ctx.kb_path, ctx.collection, ctx.embedding_model)
    except KnowledgeBaseError as exc:
        raise RetrieverUnavailableError(str(exc)) from exc
    return HybridRetriever(
        kb=kb,
        k=ctx.k,
        metadata_filter=parse_filter(ctx.metadata_filter),
        small_to_big=ctx.small_to_big,
        reader=ctx.reader(),
        graph=ctx.graph == "on",
    )


def parse_filter(text: str) -> dict[str, Any] | None:
    """Read a JSON object of metadata equalities, e.g. {"lang": "zh"}; empty means none."""
    if not text.strip():
        return None
    value = json.loads(text)
    if not isinstance(value, dict) or not all(
        isinstance(v, str | int | float | bool) for v in value.values()
    ):
        raise ValueError('metadata_filter must be a JSON object of scalars, e.g. {"lang": "zh"}')
    return value


@dataclass
class Services:
    """Objects a host or a test injects; whatever is None comes from the Context."""

    chat_model: BaseChatModel | None = None
    """Writes answers (generate, rewrites)."""
    fast_model: BaseChatModel | None = None
    """Classifies, assesses and hops; falls back to chat_model."""
    retriever: BaseRetriever | None = None
    """Searches the knowledge base."""
    web_search: WebSearch | None = None
    """Searches the web; None with no_web=False means Tavily when TAVILY_API_KEY is set."""
    no_web: bool = False
    """Turn the web off even when a key is present."""
    knowledge: CachedAnswers | None = None
    """The knowledge base whose answer cache and revision serve repeated questions; None: the
    one the Context names, unless a retriever is injected (then no cache, unless given here)."""
    answer_cache: Answers | None = None
    """Earlier answers; None: the knowledge base's own (when the Context turns them on)."""
    relevance: Judge | None = None
    """Judges retrieved sources (grade_documents); None: the fitted judge shipped for them."""
    answerability: Judge | None = None
    """Judges whether the sources answer the question (self_check); None: the shipped one."""
    route_cache: LRUCache[tuple[str, ...], tuple[str, str]] = field(
        default_factory=lambda: LRUCache(1024)
    )
    """Model classifications of questions already seen by this graph."""
    _languages: LRUCache[tuple[int, int], str] = field(
        default_factory=lambda: LRUCache(16), repr=False
    )
    """The knowledge base's main language at a revision (`main_language`)."""

    def chat(self, ctx: Context, lane: str = "") -> BaseChatModel:
        """Return the answer-writing model (a lane: see `load_chat_model`)."""
        return self.chat_model or load_chat_model(ctx.chat_model, lane)

    def fast(self, ctx: Context, lane: str = "") -> BaseChatModel:
        """Return the model for the short calls (classify, assess, hop)."""
        if self.fast_model is not None:
            return self.fast_model
        if ctx.fast_model == "auto":
            return self.chat(ctx, lane)
        return load_chat_model(ctx.fast_model, lane)

    def router(self, ctx: Context) -> BaseChatModel:
        """Return the fast model in classify's own lane (its instructions stay computed)."""
        return self.fast(ctx, "classify")

    def retriever_for(self, ctx: Context, bridges: Sequence[str] = ()) -> BaseRetriever:
        """Return the knowledge-base retriever, scoped to who is asking.

        An injected retriever with a `reader` field (the hybrid one) is copied with this run's
        reader; any other retriever is the host's to scope. `bridges` are entity keys an earlier
        hop found in chunks this reader read: the hybrid retriever's graph walk starts from them
        too (another retriever searches by the query alone).
        """
        retriever = self.retriever if self.retriever is not None else default_retriever(ctx)
        fields = getattr(type(retriever), "model_fields", {})
        update: dict[str, object] = {}
        if self.retriever is not None and "reader" in fields:
            update["reader"] = ctx.reader()
        if bridges and "bridges" in fields:
            update["bridges"] = tuple(bridges)
        return retriever.model_copy(update=update) if update else retriever

    def relevance_for(self, ctx: Context, signals: SearchedBy) -> tuple[Judge | None, str]:
        """Return the relevance judge for this run's sources, and why it is not the full one."""
        if self.relevance is not None:
            return self.relevance, ""
        from adaptive_rag.knowledge.embeddings import resolve_embeddings_spec

        return relevance_judge(resolve_embeddings_spec(ctx.embedding_model), signals)

    def answer_judge_for(self, ctx: Context) -> tuple[Judge | None, str]:
        """Return the answerability judge for this run's chat model, and why not the full one.

        A model a host injected is not the one the judge's probabilities were fitted on, whatever
        `ctx.chat_model` names: the judge fitted without them serves it.
        """
        if self.answerability is not None:
            return self.answerability, ""
        if self.chat_model is not None:
            return answer_judge(f"injected:{type(self.chat_model).__name__}")
        return answer_judge(resolve_model_spec(ctx.chat_model))

    def general_judge_for(self, ctx: Context) -> tuple[Judge | None, str]:
        """Return the general-knowledge judge for this run's chat model, and why not (if not)."""
        if self.chat_model is not None:
            return None, "the general-knowledge judge was not fitted on an injected model"
        return general_judge(resolve_model_spec(ctx.chat_model))

    def knowledge_for(self, ctx: Context) -> CachedAnswers | None:
        """Return the knowledge base whose answers are cached, or None when it is not known.

        The injected one; else, with no injected retriever, the one the Context names (opened
        once per process, as the default retriever opens it). An injected retriever searches a
        knowledge base only its host knows: without `knowledge`, nothing is cached for it.
        """
        if self.knowledge is not None:
            return self.knowledge
        if self.retriever is not None:
            return None
        from adaptive_rag.knowledge.errors import KnowledgeBaseError

        try:
            return open_knowledge_base(ctx.kb_path, ctx.collection, ctx.embedding_model)
        except KnowledgeBaseError as exc:
            raise RetrieverUnavailableError(str(exc)) from exc

    def main_language(self, ctx: Context) -> str:
        """Return the language most of the knowledge base is written in ("zh", "en"; "" unknown).

        Read from its sources' titles once per knowledge base and revision; one only an injected
        retriever knows, or one that cannot be read, is unknown.
        """
        try:
            kb = self.knowledge_for(ctx)
            listing = getattr(kb, "sources", None)
            if kb is None or listing is None:
                return ""
            at = (id(kb), kb.revision())
            known = self._languages.get(at)
            if known is None:
                known = main_language(listing())
                self._languages.put(at, known)
        except Exception:  # a store that fails to list: the question is searched as asked
            return ""
        return known

    def answers(self, ctx: Context) -> tuple[Answers, int] | None:
        """Return the answer cache and the knowledge base's revision, or None when there is none."""
        if not ctx.answer_cache:
            return None
        kb = self.knowledge_for(ctx)
        cache = self.answer_cache or (kb.answer_cache() if kb is not None else None)
        if cache is None:
            return None
        return cache, kb.revision() if kb is not None else 0

    def web(self, ctx: Context) -> WebSearch | None:
        """Return the web search, or None when it is off or has no key."""
        if self.no_web or not ctx.web_search:
            return None
        return self.web_search or default_web_search()

    def web_off(self, ctx: Context, web: WebSearch | None) -> str:
        """Return why this run cannot search the web (for the answer's notice), or "" if it can.

        `web` is what `web(ctx)` returned for this run.
        """
        if self.no_web:
            return "web search is off for this agent"
        if not ctx.web_search:
            return "web search is off: the web_search setting is false"
        if ctx.max_web_searches == 0:
            return "web search is off: max_web_searches is 0"
        return "" if web is not None else "web search is off: no TAVILY_API_KEY is set"


def main_language(sources: list[dict[str, Any]]) -> str:
    """Return the language most of a knowledge base's chunks are titled in: "zh" or "en".

    `sources` as a store lists them (each with its `chunks` and `title`); untitled ones say
    nothing, and "" is returned when no source has a title.
    """
    titled = [s for s in sources if str(s.get("title") or "").strip()]
    chinese = sum(int(s.get("chunks") or 0) for s in titled if CJK.search(str(s["title"])))
    total = sum(int(s.get("chunks") or 0) for s in titled)
    if not total:
        return ""
    return "zh" if 2 * chinese > total else "en"


__all__ = ["Services", "main_language"]
