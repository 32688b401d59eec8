"""Search results as sources: one per document, numbered and delimited alike for every node."""

from __future__ import annotations

import re

from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever

SOURCE_CHARS = 2000
"""Characters of each source a model reads; one value for every reading node keeps the prefix."""
SOURCES_BUDGET = 8000
"""Characters of all sources together (about 2,000 tokens), so 2·k fused documents fit n_ctx."""


def retrieve(retriever: BaseRetriever, query: str, k: int) -> list[Document]:
    """Search, label the results as knowledge-base documents, one per document they came from."""
    docs = retriever.invoke(query)[:k]
    labelled = []
    for doc in docs:
        meta = {"origin": "kb", **(doc.metadata or {})}
        labelled.append(Document(page_content=doc.page_content, metadata=meta, id=doc.id))
    return merge_by_document(labelled)


def document_of(doc: Document) -> str:
    """Name the document a chunk came from: its file, plus the line or page within it."""
    meta = doc.metadata or {}
    locator = meta.get("doc_id") or meta.get("line") or meta.get("page") or ""
    origin = meta.get("origin", "kb")
    return f"{origin}:{meta.get('source') or meta.get('id') or doc.page_content[:80]}#{locator}"


def merge_by_document(docs: list[Document]) -> list[Document]:
    """Join chunks of one document into one source, at its best chunk's rank.

    The model then cites documents, not chunks, and the user sees each document once.
    """
    groups: dict[str, list[Document]] = {}
    for doc in docs:
        groups.setdefault(document_of(doc), []).append(doc)
    merged = []
    for chunks in groups.values():
        if len(chunks) == 1:
            merged.append(chunks[0])
            continue
        ordered = sorted(chunks, key=lambda d: int((d.metadata or {}).get("position") or 0))
        text = "\n…\n".join(d.page_content.strip() for d in ordered)
        meta = {**chunks[0].metadata, "chunks": len(chunks), "best_chunk": chunks[0].page_content}
        merged.append(Document(page_content=text, metadata=meta, id=chunks[0].id))
    return merged


def title_of(doc: Document) -> str:
    """Return a human title for a document."""
    meta = doc.metadata or {}
    return str(meta.get("title") or meta.get("source") or meta.get("id") or "untitled")


_TAG = re.compile(r"<\s*(/?)\s*source", re.IGNORECASE)


def inert(text: str) -> str:
    """Defuse anything in retrieved text that could close or open a <source> block."""
    return _TAG.sub(lambda m: f"‹{m.group(1)}source", text)


def format_documents(docs: list[Document], max_chars: int = SOURCE_CHARS) -> str:
    """Format documents as numbered, delimited data: the model cites them, never obeys them.

    Each shows at most max_chars, and all together at most SOURCES_BUDGET; the cut depends only
    on how many documents there are, so nodes shown the same documents share the same prefix.
    """
    max_chars = min(max_chars, SOURCES_BUDGET // max(len(docs), 1))
    blocks = []
    for number, doc in enumerate(docs, start=1):
        text = inert(doc.page_content.strip()[:max_chars])
        title = inert(title_of(doc)).replace('"', "'").replace("\n", " ")[:200]
        blocks.append(f'<source id="{number}" title="{title}">\n{text}\n</source>')
    return "\n\n".join(blocks)


def source_texts(docs: list[Document], max_chars: int = SOURCE_CHARS) -> list[str]:
    """Return each document as a model reads it in `format_documents`: its title, then its text."""
    max_chars = min(max_chars, SOURCES_BUDGET // max(len(docs), 1))
    return [f"{title_of(doc)}\n{doc.page_content.strip()[:max_chars]}" for doc in docs]
