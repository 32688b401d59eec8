"""Grading reuses classify's probe scores for that same search only (nodekit.grading)."""

from __future__ import annotations

from adaptive_rag.nodekit.grading import fingerprint, scored_before
from adaptive_rag.schema.values import Scored
from langchain_core.documents import Document


def found(score: float) -> list[Document]:
    meta = {"id": "c1", "source": "a.md", "vector_score": score, "fused_reciprocal_rank": 1.0}
    return [Document("The kettle holds 1.7 litres.", metadata=meta)]


def probe(docs: list[Document]) -> Scored:
    return Scored(query="How big is the kettle?", keys=[fingerprint(d) for d in docs], scores=[0.8])


def test_the_same_search_is_not_scored_again() -> None:
    docs = found(0.71)
    assert scored_before("How big is the kettle?", found(0.71), probe(docs)) == [0.8]


def test_the_same_chunk_found_by_another_search_is_scored_afresh() -> None:
    docs = found(0.71)
    assert scored_before("How big is the kettle?", found(0.64), probe(docs)) == []


def test_another_question_or_no_probe_is_scored_afresh() -> None:
    docs = found(0.71)
    assert scored_before("What colour is the kettle?", docs, probe(docs)) == []
    assert scored_before("How big is the kettle?", docs, None) == []
