"""The fitted judges: their features, the shipped weights, and the fallbacks they say aloud."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from adaptive_rag.core.grounding import check
from adaptive_rag.core.judges import (
    ANSWER_FEATURES,
    KEYWORD_JUDGE,
    RELEVANCE_FEATURES,
    RELEVANCE_JUDGE,
    VECTOR_FEATURES,
    Logistic,
    answer_features,
    keep_sources,
    load_judge,
    relevance_judge,
    searched_by,
    source_features,
)
from adaptive_rag.core.judges.relevance import anchored, bridge, off_chain
from adaptive_rag.core.text import specific

KETTLE = "The Zephyr X2 kettle has a 1.7 litre capacity and boils in 3 minutes."
RETURNS = "Returns are accepted within 30 days of purchase with a receipt."
HIT = {"rank": 1, "vector_rank": 1, "vector_score": 0.9, "keyword_rank": 1, "keyword_score": 8.0}
MISS = {"rank": 2, "vector_rank": 5, "vector_score": 0.7, "keyword_rank": 0, "keyword_score": 0.0}


def test_each_source_is_described_by_every_feature_in_search_order() -> None:
    rows = source_features("How big is the Zephyr X2 kettle?", [(KETTLE, HIT), (RETURNS, MISS)])
    assert [set(r) for r in rows] == [set(RELEVANCE_FEATURES)] * 2
    kettle, returns = rows
    assert kettle["name_share"] == 1.0 and returns["name_share"] == 0.0
    assert kettle["word_share"] > returns["word_share"] and returns["word_gap"] > 0
    assert kettle["vector_gap"] == 0.0 and returns["vector_gap"] == pytest.approx(0.2)
    assert kettle["keyword_share"] == 1.0 and returns["keyword_reciprocal_rank"] == 0.0
    assert rows[0]["chinese"] == 0.0
    linked = {**MISS, "graph_rank": 1, "graph_entities": ["zephyr x2", "kettle"]}
    walked = source_features("How big is the Zephyr X2 kettle?", [(KETTLE, HIT), (RETURNS, linked)])
    assert walked[1]["graph_reciprocal_rank"] == 1.0 and walked[1]["graph_links"] > 0
    assert rows[1]["graph_reciprocal_rank"] == 0.0 and rows[1]["graph_links"] == 0.0
    zh = source_features("Heron hub 的保修期是多久？", [("Heron hub 保修期为两年。", HIT)])
    assert zh[0]["chinese"] == 1.0 and zh[0]["name_share"] == 1.0


def test_the_shipped_judge_ranks_the_answering_source_above_the_other() -> None:
    judge = load_judge(RELEVANCE_JUDGE)
    assert judge is not None and set(judge.features) == set(RELEVANCE_FEATURES)
    assert {"keep", "correct", "incorrect"} <= set(judge.thresholds)
    rows = source_features("How big is the Zephyr X2 kettle?", [(KETTLE, HIT), (RETURNS, MISS)])
    kettle, returns = (judge.probability(r) for r in rows)
    assert kettle > judge.thresholds["keep"] > returns


def test_another_embedding_model_falls_back_to_the_keyword_judge_and_says_why() -> None:
    full = load_judge(RELEVANCE_JUDGE)
    assert full is not None
    same, why = relevance_judge(full.fitted_for["embedding_model"], (True, True))
    assert same is full and why == ""
    other, why = relevance_judge("openai:text-embedding-3-small", (True, True))
    assert other is not None and other.name == KEYWORD_JUDGE
    assert not set(VECTOR_FEATURES) & set(other.features)
    assert "fitted for embedding_model" in why and "without vector scores" in why
    none, why = relevance_judge(full.fitted_for["embedding_model"], (False, False))
    assert none is None and "no search signals" in why


INVENTOR = "The Halden kettle was invented by Ada Brook, an engineer, in 1921."
BIRTH = "Ada Brook was born in Marrowby, a mill town on the river Esk."
OTHER = "Tom Reed, another engineer, was born in Kessel and built mills."
ASK = "In which town was the inventor of the Halden kettle born?"


def test_a_doubted_source_sharing_a_trusted_sources_name_is_the_bridge() -> None:
    texts = [INVENTOR, OTHER, BIRTH]
    assert bridge(ASK, texts, [0.9, 0.12, 0.08], keep=0.16, trusted=0.48) == (2, 0, "ada brook")
    # the likeliest of several bridges; one the judge keeps anyway is no bridge
    assert bridge(ASK, [INVENTOR, BIRTH, BIRTH], [0.9, 0.06, 0.1], 0.16, 0.48) == (
        2,
        0,
        "ada brook",
    )
    assert bridge(ASK, texts, [0.9, 0.12, 0.5], keep=0.16, trusted=0.48) is None
    # no trusted source, a bridge below the floor, or a name the question already holds: none
    assert bridge(ASK, texts, [0.3, 0.12, 0.08], keep=0.16, trusted=0.48) is None
    assert bridge(ASK, texts, [0.9, 0.12, 0.01], keep=0.16, trusted=0.48) is None
    halden = "The Halden kettle is sold in Marrowby."
    assert bridge(ASK, [INVENTOR, halden], [0.9, 0.1], keep=0.16, trusted=0.48) is None
    zh = ["云栖塔由林远舟设计。", "林远舟出生于青石镇。", "白鹭桥建于1921年。"]
    got = bridge("云栖塔的设计者出生在哪里？", zh, [0.9, 0.1, 0.1], keep=0.16, trusted=0.48)
    assert got == (1, 0, "林远舟")


def test_a_source_sharing_a_specific_name_with_one_naming_the_questions_thing_is_anchored() -> None:
    texts = [OTHER, INVENTOR, BIRTH]  # the look-alike first, as search ranks it
    assert anchored(ASK, texts, [0.9, 0.2, 0.01], keep=0.16) == (2, 1, "ada brook")
    # the bridge must be doubted and hold none of the question's names; the anchor must hold one
    assert anchored(ASK, texts, [0.9, 0.2, 0.5], keep=0.16) is None
    assert anchored(ASK, [OTHER, BIRTH], [0.9, 0.01], keep=0.16) is None
    halden = "The Halden kettle was sold by Ada Brook in Marrowby."
    assert anchored(ASK, [INVENTOR, halden], [0.9, 0.01], keep=0.16) is None
    # a lone shared word (a surname, a town) is no tie: too many sources share one
    brook = "Brook was born in Marrowby."
    assert anchored(ASK, [INVENTOR, brook], [0.9, 0.01], keep=0.16) is None
    assert anchored("Where was the inventor born?", texts, [0.9, 0.2, 0.01], keep=0.16) is None
    zh = ["白鹭桥建于1921年。", "云栖塔由林远舟设计。", "林远舟出生于青石镇。"]
    got = anchored("云栖塔的设计者出生在哪里？", zh, [0.9, 0.2, 0.01], keep=0.16)
    assert got == (2, 1, "林远舟")


def test_a_source_holding_none_of_an_anchored_chains_names_is_off_it() -> None:
    again = "The Halden kettle was sold across the north."
    texts = [OTHER, again, INVENTOR, BIRTH]
    assert off_chain(ASK, texts, bridge=3, anchor=2) == [0]


def test_only_a_full_name_is_specific() -> None:
    assert specific("oskar brevik") and specific("贺志远") and specific("林远舟")
    assert not specific("brevik") and not specific("korrvik") and not specific("鹭屿")
    assert not specific("南汀县")  # a place: no surname opens it


def test_which_channels_a_search_carries() -> None:
    assert searched_by([HIT, MISS]) == (True, True)
    assert searched_by([{**HIT, "vector_rank": 0}]) == (False, True)  # vector search missed
    assert searched_by([{"title": "own retriever"}]) == (False, False)


def test_a_judge_reads_its_json_and_a_missing_feature_counts_as_its_mean(tmp_path: Path) -> None:
    model = Logistic("t", ("a", "b"), (2.0, -1.0), 0.5, (1.0, 0.0), (2.0, 1.0), {"keep": 0.3})
    (tmp_path / "t.json").write_text(json.dumps(model.to_json(report={"n": 3})))
    read = load_judge("t", tmp_path)
    assert read == model
    assert read.probability({"a": 1.0, "b": 0.0}) == pytest.approx(1 / (1 + pow(2.718281828, -0.5)))
    assert read.probability({}) == read.probability({"a": 1.0, "b": 0.0})
    assert load_judge("absent", tmp_path) is None
    assert "fitted for chat_model 'x'" in Logistic(
        "t", (), (), 0.0, (), (), fitted_for={"chat_model": "x"}
    ).applies_to(chat_model="y")


def test_answer_features_read_the_answer_its_sources_and_the_turn() -> None:
    sources = [f"Zephyr X2\n{KETTLE}", f"Returns\n{RETURNS}"]
    question = "How big is the Zephyr X2 kettle?"
    right = "The Zephyr X2 kettle holds 1.7 litres [1]."
    wrong = "The Zephyr X2 kettle holds 2.5 litres [1]."

    def features(answer: str) -> dict[str, float]:
        grounding = check(answer, sources, question)
        return answer_features(question, answer, sources, grounding, [0.9, 0.2], 0.8, -0.3)

    good, bad = features(right), features(wrong)
    assert set(good) == set(ANSWER_FEATURES)
    assert good["answer_facts_found"] == 1.0 and bad["answer_facts_found"] < 1.0
    assert good["grounded"] == 1.0 and bad["grounded"] == 0.0
    assert good["relevance_best"] == 0.9 and good["relevance_mean"] == pytest.approx(0.55)
    assert good["support"] == 0.8 and good["assessed"] == 1.0 and good["cites"] == 1.0
    unknown = answer_features(question, right, sources, check(right, sources), [], None, None)
    assert unknown["assessed"] == 0.0 and unknown["logprob_known"] == 0.0
    assert unknown["graded"] == 0.0


def test_keep_sources_reads_an_anchored_chain_first_whatever_the_search_order() -> None:
    # the bridge ranked first, the look-alike trusted, the anchor doubted
    chosen = keep_sources(ASK, [BIRTH, OTHER, INVENTOR], [0.01, 0.9, 0.2], keep=0.16, trusted=0.48)
    assert chosen.order == [2, 0]
    assert "search result 1 as a bridge" in chosen.why and chosen.aside == [1]  # the look-alike
    plain = keep_sources(ASK, [OTHER, BIRTH], [0.9, 0.01], keep=0.16, trusted=0.48)
    assert plain.order == [0] and plain.why == ""


def test_a_term_is_vocabulary_a_name_of_one_thing_is_not() -> None:
    from adaptive_rag.core.text import is_term

    assert is_term("RFID") and is_term("GPS") and is_term("标准大气压")
    assert not is_term("Kestrel K2") and not is_term("Quillon Labs") and not is_term("澜川科技")
    assert not is_term("K2") and not is_term("ChatGPT")


def test_a_definition_of_one_term_however_rare_is_the_models_not_of_one_thing() -> None:
    from adaptive_rag.core.judges import defines_terms

    for question, language in (
        ("什么是叉车？", "zh"),  # a word of the dictionary, rarer than common_definition's bar
        ("What is a forklift?", "en"),
        ("What is RFID?", "en"),
        ("VPN是什么意思？", "zh"),
        ("What is a heat pump?", "en"),  # common terms
    ):
        assert defines_terms(question, language), question
    for question, language in (
        ("What is Norhaven Care?", "en"),  # the name of one thing
        ("叶乔波的籍贯是什么？", "zh"),  # a property of someone, not what a word means
        ("What is the capital of France?", "en"),
        ("澜川科技是什么？", "zh"),
    ):
        assert not defines_terms(question, language), question
