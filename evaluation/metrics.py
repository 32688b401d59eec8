"""Metrics: answers (exact match, token F1, containment; Chinese by character) and rankings."""

from __future__ import annotations

import re
import string
from collections import Counter

_PUNCT = set(string.punctuation) | set("，。！？；：、“”‘’（）《》「」【】")


_TOKEN = re.compile(r"[\u3400-\u9fff]|[^\W_\u3400-\u9fff]+")


def tokens(text: str) -> list[str]:
    """Normalise as the SQuAD script does (lower case, no punctuation, no articles).

    Chinese characters are tokens of their own, so Chinese is compared by character.
    """
    text = "".join(ch for ch in text.lower() if ch not in _PUNCT)
    return [t for t in _TOKEN.findall(text) if t not in ("a", "an", "the")]


def exact_match(prediction: str, golds: list[str]) -> float:
    """1.0 if the normalised prediction equals any normalised gold answer."""
    pred = tokens(prediction)
    return float(any(pred == tokens(g) for g in golds))


def f1(prediction: str, golds: list[str]) -> float:
    """Best token F1 of the prediction against any gold answer."""
    best = 0.0
    pred = tokens(prediction)
    for gold in golds:
        ref = tokens(gold)
        common = sum((Counter(pred) & Counter(ref)).values())
        if not pred or not ref or not common:
            continue
        precision, recall = common / len(pred), common / len(ref)
        best = max(best, 2 * precision * recall / (precision + recall))
    return best


_YES_NO = {"yes", "no"}


def contains(prediction: str, golds: list[str]) -> float:
    """Acc: 1.0 if a normalised gold answer appears inside the normalised prediction.

    Chinese compares by character, so this is substring containment there. A yes/no gold is
    matched against the prediction's first yes or no, so "No, ... yes ..." is not a yes.
    """
    pred = tokens(prediction)
    for gold in golds:
        ref = tokens(gold)
        if not ref:
            continue
        if len(ref) == 1 and ref[0] in _YES_NO:
            first = next((t for t in pred if t in _YES_NO), None)
            if first == ref[0]:
                return 1.0
            continue
        width = len(ref)
        if any(pred[i : i + width] == ref for i in range(len(pred) - width + 1)):
            return 1.0
    return 0.0


def ranking_scores(ranked: list[str], gold: set[str]) -> dict[str, float]:
    """Hit@k and AllGold@k at k = 2, 4 and 10, and MRR@10, of a ranked list of document ids."""
    rr = next((1.0 / (i + 1) for i, d in enumerate(ranked[:10]) if d in gold), 0.0)
    scores = {}
    for k in (2, 4, 10):
        scores[f"hit@{k}"] = float(bool(gold & set(ranked[:k])))
    for k in (2, 4, 10):
        scores[f"allgold@{k}"] = float(gold <= set(ranked[:k]))
    return {**scores, "mrr@10": rr}
