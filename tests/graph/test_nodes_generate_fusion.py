"""Generation helpers: fused documents for synthesis, echoed markup turned into citations."""

from __future__ import annotations

from adaptive_rag.core.documents import doc_key
from adaptive_rag.nodes.generate import fuse_branches, tidy
from adaptive_rag.schema.values import SubSearch
from langchain_core.documents import Document


def doc(name: str) -> Document:
    return Document(page_content=name, metadata={"id": name})


def branch(index: int, names: list[str]) -> SubSearch:
    return SubSearch(
        index=index, question=f"q{index}", source_keys=[doc_key(doc(n)) for n in names]
    )


def test_documents_found_by_several_branches_rank_first_then_each_branch_best() -> None:
    docs = [doc(n) for n in ["a1", "a2", "a3", "b1", "b2", "shared"]]
    branches = [branch(0, ["a1", "a2", "shared"]), branch(1, ["b1", "shared", "b2"])]
    fused = [d.page_content for d in fuse_branches(branches, docs, limit=10)]
    assert fused == ["shared", "a1", "b1", "a2", "b2", "a3"]


def test_the_cap_keeps_the_best_and_unranked_documents_come_last() -> None:
    docs = [doc(n) for n in ["x", "a1", "a2", "b1", "b2"]]
    branches = [branch(0, ["a1", "a2"]), branch(1, ["b1", "b2"])]
    assert [d.page_content for d in fuse_branches(branches, docs, limit=2)] == ["a1", "b1"]
    assert fuse_branches(branches, docs, limit=10)[-1].page_content == "x"


def test_echoed_source_markup_becomes_a_citation() -> None:
    assert (
        tidy('根据<source id="1" title="cmrc_92f3ca0927">，港口是德班。') == "根据[1]，港口是德班。"
    )
    assert tidy("It is 10% [2].</source>") == "It is 10% [2]."
