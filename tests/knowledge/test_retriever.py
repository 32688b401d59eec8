"""Reciprocal rank fusion, filters and small-to-big."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adaptive_rag.core.access import Reader
from adaptive_rag.knowledge.fusion import reciprocal_rank_fusion
from adaptive_rag.knowledge.retriever import HybridRetriever
from fake_sources import SAMPLE


def test_rrf_rewards_agreement_and_deduplicates() -> None:
    fused = reciprocal_rank_fusion([["a", "b", "c"], ["b", "d", "b"]], k=60)
    ids = [i for i, _ in fused]
    assert ids[0] == "b" and sorted(ids) == ["a", "b", "c", "d"]
    assert dict(fused)["b"] == 1 / 62 + 1 / 61


def test_rrf_weights_each_ranking() -> None:
    fused = reciprocal_rank_fusion([["a", "b"], ["b", "a"]], k=60, weights=[2.0, 1.0])
    assert [i for i, _ in fused] == ["a", "b"]
    assert dict(fused)["a"] == 2 / 61 + 1 / 62


def test_a_channel_weighted_zero_leaves_the_other_order(open_kb: Any) -> None:
    kb = open_kb()
    kb.ingest([str(SAMPLE)], progress=False)
    question = "How long does the Kestrel K2 battery last?"
    plain = {"k": 6, "graph": False, "facets": False}
    by_meaning = HybridRetriever(kb=kb, mode="vector", **plain).invoke(question)
    weighted = HybridRetriever(kb=kb, weights={"keyword": 0.0}, **plain).invoke(question)
    equal = HybridRetriever(kb=kb, **plain).invoke(question)
    assert [d.id for d in weighted] == [d.id for d in by_meaning]
    assert [d.id for d in equal] != [d.id for d in by_meaning]


def test_hybrid_returns_k_unique_chunks_with_scores(open_kb: Any, tmp_path: Path) -> None:
    kb = open_kb()
    kb.ingest([str(SAMPLE)], progress=False)
    docs = HybridRetriever(kb=kb, k=4).invoke("How long does the Kestrel K2 battery last?")
    assert len(docs) == 4 and len({d.id for d in docs}) == 4
    assert docs[0].metadata["section"].endswith("Battery and radio")
    assert all(d.metadata["score"] > 0 for d in docs)


def test_metadata_filter_applies_to_both_channels(open_kb: Any, tmp_path: Path) -> None:
    kb = open_kb()
    kb.ingest([str(SAMPLE)], progress=False)
    where = {"title": "Returns"}
    for mode in ("hybrid", "vector", "keyword"):
        docs = HybridRetriever(kb=kb, k=3, metadata_filter=where, mode=mode).invoke(
            "warranty battery fee"
        )
        assert docs and all(d.metadata["title"] == "Returns" for d in docs), mode


def test_small_to_big_returns_whole_sections_once(open_kb: Any, tmp_path: Path) -> None:
    folder = tmp_path / "long"
    folder.mkdir()
    body = " ".join(f"Sentence {i} about the Osprey drone battery." for i in range(120))
    (folder / "osprey.md").write_text(f"# Osprey\n\n## Battery\n\n{body}\n")
    kb = open_kb()
    kb.ingest([str(folder)], progress=False)
    small = HybridRetriever(kb=kb, k=3).invoke("Osprey drone battery")
    big = HybridRetriever(kb=kb, k=3, small_to_big=True).invoke("Osprey drone battery")
    assert len(small) == 3 and len(big) == 1
    assert len(big[0].page_content) > max(len(d.page_content) for d in small)


def test_each_chunk_keeps_its_rank_and_score_in_both_channels(open_kb: Any) -> None:
    kb = open_kb()
    kb.ingest([str(SAMPLE)], progress=False)
    question = "How long does the Kestrel K2 battery last?"
    docs = HybridRetriever(kb=kb, k=4).invoke(question)
    vector = [cid for cid, _ in kb.vector_search(question, 20)]
    keyword = dict(kb.keyword_search(question, 20))
    assert [d.metadata["rank"] for d in docs] == [1, 2, 3, 4]
    for doc in docs:
        meta = doc.metadata
        assert meta["vector_rank"] == (vector.index(doc.id) + 1 if doc.id in vector else 0)
        assert meta["keyword_score"] == round(keyword.get(str(doc.id), 0.0), 5)
        assert (meta["keyword_rank"] > 0) == (str(doc.id) in keyword)
    only_keyword = HybridRetriever(kb=kb, k=4, mode="keyword").invoke(question)
    assert all(d.metadata["vector_rank"] == 0 for d in only_keyword)


def test_vector_search_takes_equalities_and_a_reader_in_either_store(
    open_kb: Any, tmp_path: Path
) -> None:
    kb = open_kb()
    for name, owner in (("public", ""), ("private", "alice")):
        path = tmp_path / name / "notes.md"
        path.parent.mkdir()
        path.write_text(f"# Notes\n\nDescale the kettle every month ({name} copy).\n")
        kb.ingest([str(path)], progress=False, owner=owner)
    private = str(tmp_path / "private" / "notes.md")

    def sources(where: dict[str, Any], reader: Reader) -> set[str]:
        found = kb.get([cid for cid, _ in kb.vector_search("kettle", 10, where, reader)])
        return {d.metadata["source"] for d in found}

    assert sources({"title": "Notes"}, Reader("bob")) == {str(tmp_path / "public" / "notes.md")}
    assert sources({"title": "Notes", "source": private}, Reader("bob")) == set()
    assert sources({"title": "Notes", "source": private}, Reader("alice")) == {private}
