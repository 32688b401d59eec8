"""Earlier answers, found again by the same question (as `normalise` folds it) at one revision.

What every store's cache shares: the key, the folding, what is recalled; each store keeps the
entries its own way (knowledge.chroma.answers, knowledge.postgres.answers).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class Recalled:
    """An answer given before: the output fields to return, and how it was found."""

    output: dict[str, Any]
    question: str
    """The question it answered, as it was written then (case, width and spacing may differ)."""


def normalise(question: str) -> str:
    """Fold case, width and spacing, and drop closing punctuation: the same question, written."""
    text = unicodedata.normalize("NFKC", question).casefold()
    return re.sub(r"\s+", " ", text).strip().rstrip("?.!。？！ ")


class Answers(Protocol):
    """What a store's cache of earlier answers offers (each store keeps its own)."""

    def find(self, question: str, scope: str, revision: int) -> Recalled | None:
        """Return the stored answer to this question at this revision, unless it expired."""
        ...

    def put(
        self, question: str, scope: str, revision: int, output: dict[str, Any], ttl: float
    ) -> None:
        """Keep an answer for `ttl` seconds, or until the knowledge base changes."""
        ...


def answer_key(question: str, scope: str) -> str:
    """Return the key of a question's entry under one set of answer-shaping settings."""
    return hashlib.sha256(f"{scope}\n{normalise(question)}".encode()).hexdigest()
