"""Citations in answer text: read them, tidy echoed markup, and spot answers that say nothing."""

from __future__ import annotations

import re
from collections.abc import Sequence

CITATION = re.compile(r"\[(\d+(?:\s*[,，]\s*\d+)*)\]")
_SOURCE_TAG = re.compile(r'<source\s+id="?(\d+)"?[^>]*>')
_WORD = re.compile(r"[\u3400-\u9fff]|[^\W_]+")
# A citation standing where the fact should be: "The latest firmware is [3][4]."
_CITED_INSTEAD = re.compile(
    r"(?:\b(?:is|are|was|were|be|of|to|at|by|from|the|a|an)|是|为)\s*"
    r"(?:\[\d+(?:\s*[,，]\s*\d+)*\]\s*)+(?:[.。!！?？]|$)",
    re.IGNORECASE,
)


def tidy(answer: str) -> str:
    """Turn source markup a model echoed ('according to <source id="1" ...>') into [1]."""
    return _SOURCE_TAG.sub(r"[\1]", answer).replace("</source>", "").strip()


def cited_numbers(answer: str) -> list[int]:
    """Return the source numbers an answer cites, in first-cited order."""
    numbers: list[int] = []
    for group in CITATION.findall(answer):
        for part in re.split(r"[,，]", group):
            if int(part) not in numbers:
                numbers.append(int(part))
    return numbers


def cited_sources(answer: str, sources: Sequence[str]) -> list[str]:
    """Return the sources an answer cites, in first-cited order (numbers past the list dropped)."""
    return [sources[n - 1] for n in cited_numbers(answer) if 1 <= n <= len(sources)]


def without_citations(answer: str) -> str:
    """Return the answer's text with its [n] markers removed."""
    return re.sub(r"\s+", " ", CITATION.sub("", answer)).strip()


def says_nothing(answer: str) -> bool:
    """Whether an answer is empty, only citation markers, or cites where its fact should be."""
    return not _WORD.search(without_citations(answer)) or bool(_CITED_INSTEAD.search(answer))
