"""Answer metrics: normalised exact match and token F1 (Chinese compared by character)."""

from __future__ import annotations

import re
import string
from collections import Counter

_CJK = re.compile(r"[\u3400-\u9fff]")
_PUNCT = set(string.punctuation) | set("，。！？；：、“”‘’（）《》「」【】")


def tokens(text: str) -> list[str]:
    """Lower-case, drop punctuation and English articles; Chinese characters are tokens."""
    text = "".join(" " if ch in _PUNCT else ch for ch in text.lower())
    out: list[str] = []
    for word in text.split():
        if _CJK.search(word):
            out.extend(ch for ch in word if not ch.isspace())
        elif word not in ("a", "an", "the"):
            out.append(word)
    return out


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
