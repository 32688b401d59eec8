"""Services the nodes call: chat models, the knowledge base and the web, resolved per run."""

from __future__ import annotations

from dataclasses import dataclass, field

from adaptive_rag.graph.context import Context
from adaptive_rag.services.cache import LRUCache
from adaptive_rag.services.chat import load_chat_model
from adaptive_rag.services.retrieval import default_retriever
from adaptive_rag.services.web import WebSearch, default_web_search
from langchain_core.language_models import BaseChatModel
from langchain_core.retrievers import BaseRetriever


@dataclass
class Services:
    """Objects a host or a test injects; whatever is None comes from the Context."""

    chat_model: BaseChatModel | None = None
    """Writes answers (generate, decompose, rewrites)."""
    fast_model: BaseChatModel | None = None
    """Classifies, grades and checks; falls back to chat_model."""
    retriever: BaseRetriever | None = None
    """Searches the knowledge base."""
    web_search: WebSearch | None = None
    """Searches the web; None with no_web=False means Tavily when TAVILY_API_KEY is set."""
    no_web: bool = False
    """Turn the web off even when a key is present."""
    route_cache: LRUCache[tuple[str, ...], tuple[str, str]] = field(
        default_factory=lambda: LRUCache(1024)
    )
    """Model classifications of questions already seen by this graph."""

    def chat(self, ctx: Context) -> BaseChatModel:
        """Return the answer-writing model."""
        return self.chat_model or load_chat_model(ctx.chat_model)

    def fast(self, ctx: Context) -> BaseChatModel:
        """Return the model for classify, grade and self-check."""
        if self.fast_model is not None:
            return self.fast_model
        if ctx.fast_model == "auto":
            return self.chat(ctx)
        return load_chat_model(ctx.fast_model)

    def kb(self, ctx: Context) -> BaseRetriever:
        """Return the knowledge-base retriever."""
        return self.retriever or default_retriever(ctx)

    def web(self, ctx: Context) -> WebSearch | None:
        """Return the web search, or None when it is off or has no key."""
        if self.no_web or not ctx.web_search:
            return None
        return self.web_search or default_web_search()


__all__ = ["Services"]
