"""Document identity: one key per chunk, whatever store or web page it came from."""

from __future__ import annotations

from langchain_core.documents import Document


def doc_key(doc: Document) -> str:
    """Identify a document by its chunk id, else by origin, source and content."""
    meta = doc.metadata or {}
    if meta.get("id"):
        return f"{meta.get('origin', 'kb')}:{meta['id']}"
    return f"{meta.get('origin', 'kb')}:{meta.get('source', '')}:{doc.page_content}"
