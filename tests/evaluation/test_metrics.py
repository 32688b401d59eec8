"""Answer metrics behave like the SQuAD script, and Chinese is compared by character."""

from __future__ import annotations

from adaptive_rag.evaluation.metrics import exact_match, f1, tokens
from adaptive_rag.evaluation.metrics import ranking_scores as score


def test_normalisation() -> None:
    assert tokens("The Eiffel Tower!") == ["eiffel", "tower"]
    assert tokens("光荣和ω-force") == ["光", "荣", "和", "ωforce"]
    assert tokens("It holds 1.7 litres.") == ["it", "holds", "17", "litres"]


def test_exact_match_and_f1() -> None:
    assert exact_match("the RNA interference pathway", ["RNA interference pathway"]) == 1.0
    assert f1("RNA interference", ["RNA interference pathway"]) == 0.8
    assert f1("unrelated", ["RNA interference"]) == 0.0
    assert f1("", ["x"]) == 0.0
    assert round(f1("光荣公司", ["光荣"]), 2) == 0.67


def test_retrieval_scores() -> None:
    s = score(["d3", "d1", "d9"], {"d1", "d2"})
    assert s["hit@4"] == 1.0 and s["allgold@10"] == 0.0 and s["mrr@10"] == 0.5
    assert s["hit@2"] == 1.0 and s["allgold@2"] == 0.0
    assert score(["d2", "d1"], {"d1", "d2"})["allgold@2"] == 1.0
