"""Read from a whole Chroma collection: its derived index (BM25, readers, graph), sources."""

from __future__ import annotations

from typing import Any

from adaptive_rag.core.access import GROUPS, OWNER, PUBLIC, Reader
from adaptive_rag.knowledge.chroma.derived import DerivedIndex
from adaptive_rag.knowledge.chroma.upgrade import ENTITIES, get_all
from adaptive_rag.knowledge.chunking import index_text
from adaptive_rag.knowledge.facets import FacetIndex
from adaptive_rag.knowledge.graph import EntityGraph
from langchain_core.documents import Document


def derive(chunks: Any, revision: str) -> DerivedIndex:
    """Read every chunk of a collection once and index it: BM25, readers, graph and facets."""
    everything = get_all(chunks, ["documents", "metadatas"])
    ids = list(everything["ids"])
    metas = [meta or {} for meta in everything["metadatas"]]
    texts = [
        index_text(Document(page_content=doc or "", metadata=meta))
        for doc, meta in zip(everything["documents"], metas, strict=True)
    ]
    access = [{key: meta[key] for key in (OWNER, GROUPS) if key in meta} for meta in metas]
    graph = EntityGraph.build([list(meta.get(ENTITIES) or []) for meta in metas])
    return DerivedIndex.build(ids, texts, revision, access, graph, FacetIndex.build(metas))


def summarise(metadatas: list[Any], reader: Reader | None = None) -> list[dict[str, Any]]:
    """Return one entry per source (a name under its owner): its chunks, title and readers.

    With a reader, only the sources it may read.
    """
    summary: dict[tuple[str, str], dict[str, Any]] = {}
    for meta in metadatas:
        meta = meta or {}
        if reader is not None and not reader.may_read(meta):
            continue
        entry = summary.setdefault(
            (str(meta.get("source", "?")), str(meta.get(OWNER, PUBLIC))),
            {
                "source": meta.get("source"),
                "chunks": 0,
                "title": meta.get("title", ""),
                OWNER: meta.get(OWNER, PUBLIC),
                GROUPS: list(meta.get(GROUPS) or []),
            },
        )
        entry["chunks"] += 1
    return [summary[key] for key in sorted(summary)]
