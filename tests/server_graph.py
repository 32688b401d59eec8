"""Graphs over scripted fakes, for serving with `langgraph dev` in tests."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from adaptive_rag import Services, build_graph
from adaptive_rag.core.access import Reader
from adaptive_rag.graph.knowledge import build_knowledge_graph
from adaptive_rag.knowledge.chroma.store import ChromaStore
from adaptive_rag.knowledge.opening import open_store
from adaptive_rag.knowledge.retriever import HybridRetriever
from fake_sources import HashEmbeddings, KeywordRetriever, kb_docs
from fakes import DEFAULT_SCRIPT, ScriptedChatModel
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from tenants import echo_model

REWRITE = "How long does the Zephyr X2 kettle take to boil?"

graph = build_graph(
    services=Services(
        chat_model=ScriptedChatModel.with_script(rewrite=REWRITE),
        retriever=KeywordRetriever(docs=kb_docs()),
        no_web=True,
    ),
    name="Adaptive RAG (scripted)",
)


def _slow_answer(user: str) -> str:
    time.sleep(4)  # long enough to kill the server mid-run
    return "The Zephyr X2 kettle holds 1.7 litres [1]."


slow_graph = build_graph(
    services=Services(
        chat_model=ScriptedChatModel.with_script(rewrite=REWRITE, rag=_slow_answer),
        retriever=KeywordRetriever(docs=kb_docs()),
        no_web=True,
    ),
    name="Adaptive RAG (slow)",
)


LONG_ANSWER = " ".join(["word"] * 400) + " [1]."
"""400 tokens at 50 ms: 20 s of writing unless the run's cancel stops it."""

long_graph = build_graph(
    services=Services(
        chat_model=ScriptedChatModel(
            script={**DEFAULT_SCRIPT, "rag": LONG_ANSWER}, token_delay=0.05, serial=True
        ),
        retriever=KeywordRetriever(docs=kb_docs()),
        no_web=True,
    ),
    name="Adaptive RAG (long answers, one call at a time)",
)

quick_graph = build_graph(
    services=Services(
        chat_model=ScriptedChatModel(script=DEFAULT_SCRIPT, serial=True),  # the same one model
        retriever=KeywordRetriever(docs=kb_docs()),
        no_web=True,
    ),
    name="Adaptive RAG (short answers, one call at a time)",
)


class ChromaServerKB(BaseRetriever):
    """Hybrid search over the 'load' collection on the Chroma server of CHROMA_HOST/PORT."""

    def _get_relevant_documents(self, query: str, *, run_manager: Any = None) -> list[Document]:
        return HybridRetriever(kb=_server_kb(), k=4).invoke(query)


_LOCK = threading.Lock()
_KB: list[ChromaStore] = []


def _server_kb() -> ChromaStore:
    with _LOCK:
        if not _KB:  # opened on first use, never at import
            _KB.append(ChromaStore.open("", "load", "test:hash", embeddings=HashEmbeddings()))
        return _KB[0]


chroma_graph = build_graph(
    services=Services(
        chat_model=ScriptedChatModel.with_script(rewrite=REWRITE),
        retriever=ChromaServerKB(),
        no_web=True,
    ),
    name="Adaptive RAG (Chroma server)",
)


class TenantsKB(BaseRetriever):
    """Hybrid search over the tenants' knowledge base at TENANTS_KB, as `reader` may read it."""

    reader: Reader = Reader()

    def _get_relevant_documents(self, query: str, *, run_manager: Any = None) -> list[Document]:
        return HybridRetriever(kb=_tenants_kb(), k=4, reader=self.reader).invoke(query)


_TENANTS: list[ChromaStore] = []


def _tenants_kb() -> ChromaStore:
    with _LOCK:
        if not _TENANTS:
            path = os.environ["TENANTS_KB"]
            _TENANTS.append(
                ChromaStore.open(path, "tenants", "test:hash", embeddings=HashEmbeddings())
            )
        return _TENANTS[0]


tenants_graph = build_graph(
    services=Services(chat_model=echo_model(), retriever=TenantsKB(), no_web=True),
    name="Adaptive RAG (tenants, echo model)",
)


_SHARED: dict[str, ChromaStore] = {}


def _at_shared_kb(collection: str, embeddings: HashEmbeddings) -> ChromaStore:
    """A collection of the knowledge base at SHARED_KB, opened once per process."""
    with _LOCK:
        if collection not in _SHARED:
            _SHARED[collection] = open_store(  # PostgreSQL when KNOWLEDGE_URI is set
                os.environ["SHARED_KB"], collection, "test:hash", create=True, embeddings=embeddings
            )
        return _SHARED[collection]


def _shared_kb(_: Any = None) -> ChromaStore:
    """The collection that the knowledge graph writes and the agent searches."""
    return _at_shared_kb("shared", HashEmbeddings())


class SharedKB(BaseRetriever):
    """Hybrid search over the shared knowledge base, as `reader` may read it."""

    reader: Reader = Reader()

    def _get_relevant_documents(self, query: str, *, run_manager: Any = None) -> list[Document]:
        return HybridRetriever(kb=_shared_kb(), k=4, reader=self.reader).invoke(query)


shared_graph = build_graph(
    services=Services(chat_model=echo_model(), retriever=SharedKB(), no_web=True),
    name="Adaptive RAG (shared knowledge base, echo model)",
)

knowledge_graph = build_knowledge_graph(_shared_kb, name="Knowledge base (shared, test embedder)")


class SlowHashEmbeddings(HashEmbeddings):
    """The test embedder at EMBED_DELAY seconds a batch: a batch that a test can kill midway."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        time.sleep(float(os.environ.get("EMBED_DELAY", "0.3")))
        return super().embed_documents(texts)


def _slow_kb(_: Any = None) -> ChromaStore:
    return _at_shared_kb("slow", SlowHashEmbeddings())


slow_knowledge_graph = build_knowledge_graph(_slow_kb, name="Knowledge base (slow test embedder)")
