"""Grade documents: the fitted judge reads the likely sources first, a bridge beside them, and
the rest of a search with several of them unless it finds the search incorrect."""

from __future__ import annotations

from typing import Any

from adaptive_rag import Context, Services
from adaptive_rag.nodes.grade_documents import grade_documents
from fakes import ScriptedJudge
from langchain_core.documents import Document

QUESTION = "In which town was the inventor of the Halden kettle born?"
INVENTOR = "The Halden kettle was invented by Ada Brook, an engineer, in 1921."
BIRTH = "Ada Brook was born in Marrowby, a mill town on the river Esk."
OTHER = "Tom Reed, another engineer, was born in Kessel, a town of mills."
THRESHOLDS = {"keep": 0.3, "correct": 0.7, "incorrect": 0.3}


def grade(
    texts: list[str] | list[Document],
    scores: list[float],
    thresholds: dict[str, float] = THRESHOLDS,
    route: str | None = None,
) -> dict[str, Any]:
    docs = [
        text
        if isinstance(text, Document)
        else Document(
            page_content=text, metadata={"id": str(i), "rank": i + 1, "keyword_rank": i + 1}
        )
        for i, text in enumerate(texts)
    ]
    judge = ScriptedJudge(scores, thresholds=thresholds)
    state: Any = {"standalone": QUESTION, "documents": docs}
    if route:
        state["route"] = {"category": route, "reason": "", "method": "rule"}
    return dict(grade_documents(state, Context(), Services(no_web=True, relevance=judge)))


def kept(update: dict[str, Any]) -> list[str]:
    return [d.page_content for d in update["documents"][1:]]  # after the RESET mark


def test_a_doubted_source_naming_a_trusted_sources_person_is_kept_as_the_bridge() -> None:
    update = grade([INVENTOR, OTHER, BIRTH], [0.9, 0.2, 0.1])
    assert kept(update) == [INVENTOR, BIRTH, OTHER]  # search order kept; the search is read whole
    assert update["rejected"] == []
    assert update["doc_scores"] == [0.9, 0.1, 0.2]
    (judged,) = update["judgments"]
    assert judged["method"] == "fitted" and judged["verdict"] == "correct"
    assert judged["detail"] == (
        "kept 2 of 3 sources (1 at p >= 0.30), with search result 3 as a bridge: it shares"
        " 'ada brook' with search result 1; the other 1 read after them, as several are likely"
    )


def test_a_look_alike_trusted_source_does_not_hide_the_chain_from_the_questions_own_name() -> None:
    # the look-alike holds the question's words and is trusted; the source naming the kettle is
    # doubted, and the birthplace's source, which shares only the inventor's name with it, is
    # rated near zero: both are kept through the kettle's name, read first, and the look-alike,
    # which holds none of their names, is left out
    update = grade([OTHER, INVENTOR, BIRTH], [0.9, 0.2, 0.01])
    assert kept(update) == [INVENTOR, BIRTH]  # the look-alike stays out, though two are kept
    assert update["doc_scores"] == [0.2, 0.01]
    assert [d.page_content for d in update["rejected"]] == [OTHER]
    assert update["judgments"][0]["detail"] == (
        "kept 2 of 3 sources (1 at p >= 0.30), with search result 3 as a bridge: it shares"
        " 'ada brook' with search result 2, which holds a name the question asks about (both read"
        " first); left out, as holding none of their names: search result 1"
    )
    # a source that names the kettle again stays, after the chain; a doubted one is read too
    again = "The Halden kettle was sold across the north."
    nameless = "It was later sold in three sizes."
    update = grade([again, OTHER, INVENTOR, BIRTH, nameless], [0.9, 0.9, 0.2, 0.01, 0.1])
    assert kept(update) == [INVENTOR, BIRTH, again, nameless]
    assert [d.page_content for d in update["rejected"]] == [OTHER]


def test_without_a_chain_the_sources_at_the_threshold_are_all_kept() -> None:
    both = grade([INVENTOR, OTHER], [0.5, 0.5])  # no source shares a name with the kettle's
    assert kept(both) == [INVENTOR, OTHER] and both["rejected"] == []
    nameless = "It was later sold in three sizes."  # names no one: never a look-alike
    chained = grade([nameless, INVENTOR, BIRTH], [0.9, 0.2, 0.01])
    assert kept(chained) == [INVENTOR, BIRTH, nameless]


def test_one_likely_source_is_read_alone_and_several_bring_the_rest_of_the_search() -> None:
    alone = grade([OTHER, INVENTOR], [0.1, 0.9])
    assert kept(alone) == [INVENTOR] and alone["doc_scores"] == [0.9]
    assert alone["read_whole"] is False  # its answer is assessed before it is written
    assert [d.page_content for d in alone["rejected"]] == [OTHER]
    assert alone["judgments"][0]["detail"] == "kept 1 of 2 sources at p >= 0.30"
    lamp = "The Aurora lamp uses 9 watts."
    several = grade([OTHER, INVENTOR, lamp], [0.1, 0.9, 0.5])  # two likely: read whole
    assert several["relevance"] == "correct" and several["rejected"] == []
    assert several["read_whole"] is True  # written without assess (graph.edges.after_grading)
    assert kept(several) == [INVENTOR, lamp, OTHER]  # the doubted one last
    assert several["doc_scores"] == [0.9, 0.5, 0.1]
    assert several["judgments"][0]["detail"] == (
        "kept 2 of 3 sources at p >= 0.30; the other 1 read after them, as several are likely"
    )
    every = grade([INVENTOR, OTHER], [0.9, 0.8])
    assert every["judgments"][0]["detail"] == "kept 2 of 2 sources at p >= 0.30"
    assert every["read_whole"] is True  # nothing left to add, but several are likely


def test_a_simple_question_reads_only_its_likely_sources() -> None:
    lamp = "The Aurora lamp uses 9 watts."
    several = grade([OTHER, INVENTOR, lamp], [0.1, 0.9, 0.5], route="simple")
    assert kept(several) == [INVENTOR, lamp]  # two likely, the doubted one left out
    assert [d.page_content for d in several["rejected"]] == [OTHER]
    assert several["read_whole"] is True  # several likely: still written without assess
    assert several["judgments"][0]["detail"] == (
        "kept 2 of 3 sources at p >= 0.30; the other 1 left out, as the question asks one fact"
    )
    # a document two of whose chunks were found is one source, read whole on the light path too
    meta = {"id": "9", "rank": 1, "keyword_rank": 1}
    merged = Document(
        page_content=f"{INVENTOR}\n…\n{BIRTH}",
        metadata={**meta, "chunks": 2, "best_chunk": INVENTOR},
    )
    light = grade([merged, OTHER], [0.9, 0.1], route="simple")
    assert kept(light) == [merged.page_content]
    assert light["judgments"][0]["detail"] == "kept 1 of 2 sources at p >= 0.30"


def test_an_incorrect_search_keeps_only_the_likely_sources() -> None:
    # CRAG's incorrect verdict (the best source below its cut-off): the doubted ones are rejected
    cutoffs = {"keep": 0.2, "correct": 0.7, "incorrect": 0.5}
    update = grade([OTHER, INVENTOR, BIRTH], [0.1, 0.4, 0.3], cutoffs)  # two likely, yet incorrect
    assert update["relevance"] == "incorrect"
    assert kept(update) == [INVENTOR, BIRTH] and update["doc_scores"] == [0.4, 0.3]
    assert [d.page_content for d in update["rejected"]] == [OTHER]
    assert update["judgments"][0]["detail"] == "kept 2 of 3 sources at p >= 0.20"
    assert update["read_whole"] is False
    nothing = grade([OTHER, INVENTOR], [0.1, 0.15], cutoffs)
    assert kept(nothing) == [] and len(nothing["rejected"]) == 2
