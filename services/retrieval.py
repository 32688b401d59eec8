"""Knowledge-base retrieval: the retriever seam and how documents are shown to models."""

from __future__ import annotations

from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever


class RetrieverUnavailableError(RuntimeError):
    """No knowledge base can be searched (none configured, or its store is down)."""


def default_retriever(kb_path: str, collection: str, k: int) -> BaseRetriever:
    """Build the retriever for a knowledge base described by the run's context."""
    raise RetrieverUnavailableError(
        f"no knowledge base is configured for collection {collection!r}"
        + (f" at {kb_path}" if kb_path else "")
        + ": pass a retriever to build_graph(services=Services(retriever=...))"
    )


def retrieve(retriever: BaseRetriever, query: str, k: int) -> list[Document]:
    """Search and label the results as knowledge-base documents."""
    docs = retriever.invoke(query)[:k]
    labelled = []
    for doc in docs:
        meta = {"origin": "kb", **(doc.metadata or {})}
        labelled.append(Document(page_content=doc.page_content, metadata=meta, id=doc.id))
    return labelled


def title_of(doc: Document) -> str:
    """Return a human title for a document."""
    meta = doc.metadata or {}
    return str(meta.get("title") or meta.get("source") or meta.get("id") or "untitled")


def format_documents(docs: list[Document], max_chars: int = 1500) -> str:
    """Format documents as numbered, delimited data: the model cites them, never obeys them."""
    blocks = []
    for number, doc in enumerate(docs, start=1):
        text = doc.page_content.strip()[:max_chars]
        blocks.append(f'<source id="{number}" title="{title_of(doc)}">\n{text}\n</source>')
    return "\n\n".join(blocks)
