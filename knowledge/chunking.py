"""Split documents into overlapping chunks that follow headings and paragraphs (Chinese too)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from adaptive_rag.knowledge.facets import header
from langchain_core.documents import Document
from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter

CHUNK_CHARS = 800
OVERLAP_CHARS = 120
# paragraphs, lines, then sentence ends in Chinese and English, then clauses, then words
SEPARATORS = ["\n\n", "\n", "。", "！", "？", ". ", "! ", "? ", "；", "; ", "，", ", ", " ", ""]
_HEADERS = [("#", "h1"), ("##", "h2"), ("###", "h3")]


@dataclass(frozen=True)
class Section:
    """A heading's whole text: the 'big' context a chunk links back to."""

    id: str
    text: str
    source: str


def stable_id(*parts: str) -> str:
    """Derive an id from content, so re-ingesting the same text yields the same id."""
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:32]


def chunk_documents(
    docs: list[Document],
    source: str,
    chunk_chars: int = CHUNK_CHARS,
    overlap: int = OVERLAP_CHARS,
    owner: str = "",
) -> tuple[list[Document], list[Section]]:
    """Return chunks (with source, title, section, position, parent_id) and their sections.

    Ids derive from the text, the source and its owner: two owners' documents of one name are
    two sources, whose chunks never overwrite each other's. A public source's ids leave the owner
    out, as they were before sources had owners.
    """
    scope = (owner, source) if owner else (source,)
    splitter = RecursiveCharacterTextSplitter(
        chunk_size=chunk_chars, chunk_overlap=overlap, separators=SEPARATORS, keep_separator="end"
    )
    # headings go to metadata (and into index_text), so no chunk is a bare heading
    headings = MarkdownHeaderTextSplitter(_HEADERS, strip_headers=True)
    chunks: list[Document] = []
    sections: list[Section] = []
    seen: set[str] = set()
    for doc in docs:
        for part in headings.split_text(doc.page_content):
            path = " > ".join(part.metadata[k] for _, k in _HEADERS if k in part.metadata)
            whole = f"{path}\n\n{part.page_content}" if path else part.page_content
            parent = Section(stable_id(*scope, path, part.page_content), whole, source)
            sections.append(parent)
            for text in splitter.split_text(part.page_content):
                meta = {
                    **doc.metadata,
                    "source": source,
                    "section": path,
                    "position": len(chunks),
                    "parent_id": parent.id,
                }
                chunk_id = stable_id(*scope, path, text)
                if chunk_id in seen:  # the same text twice in one file: keep both, distinctly
                    chunk_id = stable_id(*scope, path, text, str(len(chunks)))
                seen.add(chunk_id)
                meta["id"] = chunk_id
                chunks.append(Document(page_content=text.strip(), metadata=meta, id=chunk_id))
    return chunks, sections


def index_text(chunk: Document, described: bool = True) -> str:
    """Text that embeddings and BM25 see: title and section give a chunk its context.

    With `described`, so do the document's own fields (publisher, author, date: knowledge.facets).
    """
    meta = chunk.metadata
    heading = " — ".join(str(x) for x in (meta.get("title"), meta.get("section")) if x)
    lines = [heading, header(meta) if described else ""]
    return "\n".join([*(line for line in lines if line), chunk.page_content])
