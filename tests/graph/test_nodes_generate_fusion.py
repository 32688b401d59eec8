"""Generation helpers: fused documents for synthesis, echoed markup turned into citations."""

from __future__ import annotations

from adaptive_rag.core.text import doc_key
from adaptive_rag.nodes.generate import fuse_branches, tidy
from adaptive_rag.schema.values import Hop, SubSearch
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


def test_the_whole_question_keeps_its_search_and_the_parts_add_up_to_as_many_more() -> None:
    docs = [doc(n) for n in ["w1", "w2", "w3", "w4", "w5", "a1", "b1", "a2", "b2", "a3"]]
    branches = [
        branch(0, ["a1", "w1", "a2", "a3"]),
        branch(1, ["b1", "b2", "w2"]),
        SubSearch(
            index=2,
            question="Compare A and B?",
            source_keys=[doc_key(doc(n)) for n in ["w1", "w2", "w3", "w4", "w5"]],
        ),
    ]
    fused = [d.page_content for d in fuse_branches(branches, docs, 4, " compare a and b? ")]
    assert fused[:4] == ["w1", "w2", "w3", "w4"]  # as a single search would read them
    assert fused[4:] == ["a1", "b1", "a2", "b2"]  # the parts' best, at most 4 more


def test_a_later_hop_cannot_push_out_the_first_hops_documents() -> None:
    first = Hop(
        index=0,
        query="Where was the inventor of X born?",
        finding="",
        done=False,
        source_keys=[doc_key(doc(n)) for n in ["q1", "q2", "q3", "q4"]],
        bridges=[],
        links=[],
    )
    second = Hop(
        index=1,
        query="Ada Brook birthplace",
        finding="",
        done=True,
        source_keys=[doc_key(doc(n)) for n in ["h1", "q1", "h2"]],
        bridges=[],
        links=[],
    )
    docs = [doc(n) for n in ["q1", "q2", "q3", "q4", "h1", "h2"]]
    fused = fuse_branches([first, second], docs, 4, "Where was the inventor of X born?")
    assert [d.page_content for d in fused] == ["q1", "q2", "q3", "q4", "h1", "h2"]


def test_echoed_source_markup_becomes_a_citation() -> None:
    assert (
        tidy('根据<source id="1" title="cmrc_92f3ca0927">，港口是德班。') == "根据[1]，港口是德班。"
    )
    assert tidy("It is 10% [2].</source>") == "It is 10% [2]."
