"""The sources an answer lists: every document it was given, the ones it cites first."""

from __future__ import annotations

from adaptive_rag.core.text import cited_numbers
from adaptive_rag.knowledge.sources import title_of
from adaptive_rag.schema.reading import from_web
from adaptive_rag.schema.values import Source
from langchain_core.documents import Document


def sources_for(answer: str, docs: list[Document]) -> list[Source]:
    """List every document the answer was given, once each: the cited ones first."""
    cited = [n for n in cited_numbers(answer) if 1 <= n <= len(docs)]
    order = [*cited, *(n for n in range(1, len(docs) + 1) if n not in cited)]
    return [
        Source(
            id=n,
            title=title_of(docs[n - 1]),
            source=str(docs[n - 1].metadata.get("source", "")),
            snippet=str(docs[n - 1].metadata.get("best_chunk") or docs[n - 1].page_content).strip()[
                :200
            ],
            origin="web" if from_web(docs[n - 1]) else "kb",
            cited=n in cited,
        )
        for n in order
    ]
