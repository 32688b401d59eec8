"""The learned router's map: a logistic map from a question's embedding and shape to A, B or C.

An experiment, not part of the package: `python experiments/router_fit.py RUN...` fits it on
labels derived from the fixed strategies and scores it against rules + model on held-out folds
(docs/decisions.md#learned-router-not-shipped says why no weights ship). Applying it is a dot
product, no model call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np
from adaptive_rag.core.question import (
    asks_yes_no,
    has_parts,
    length,
    names_an_entity,
    nested_reference,
)

CATEGORY = {"A": "general", "B": "simple", "C": "complex"}
"""The route each derived label stands for: no retrieval, single-step, multi-step."""

_CAPITALISED = re.compile(r"(?<!^)\b[A-Z][a-zA-Z]+")

SURFACE = ("words", "chinese", "parts", "nested", "names", "yes_no", "capitalised", "questions")
"""The question's shape, beside its embedding (the rules' own signals among them)."""


def surface(question: str) -> list[float]:
    """Return the shape features of a question, in SURFACE's order."""
    return [
        length(question) / 20.0,
        float(bool(re.search(r"[\u3400-\u9fff]", question))),
        float(has_parts(question)),
        float(nested_reference(question)),
        float(names_an_entity(question)),
        float(asks_yes_no(question)),
        len(_CAPITALISED.findall(question.strip())) / 5.0,
        float(question.count("?") + question.count("？")),
    ]


@dataclass(frozen=True)
class RouterWeights:
    """A fitted logistic map: classes, coefficients over [embedding, standardised surface]."""

    classes: tuple[str, ...]
    coef: np.ndarray[Any, Any]
    intercept: np.ndarray[Any, Any]
    mean: np.ndarray[Any, Any]
    scale: np.ndarray[Any, Any]
    embedding: str
    """The embedding model the map was fitted over; the router needs the same one."""

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RouterWeights:
        """Read weights written by router_fit.py (raises ValueError on a malformed file)."""
        try:
            weights = cls(
                classes=tuple(data["classes"]),
                coef=np.asarray(data["coef"], dtype=np.float64),
                intercept=np.asarray(data["intercept"], dtype=np.float64),
                mean=np.asarray(data["mean"], dtype=np.float64),
                scale=np.asarray(data["scale"], dtype=np.float64),
                embedding=str(data["embedding"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a router weights file: {exc}") from exc
        rows = 1 if len(weights.classes) == 2 else len(weights.classes)
        if weights.coef.shape[0] != rows or len(weights.mean) != len(SURFACE):
            raise ValueError("router weights do not match their classes or features")
        if not set(weights.classes) <= set(CATEGORY):
            raise ValueError(f"router classes must be among {sorted(CATEGORY)}")
        return weights

    def probabilities(self, embedding: list[float], question: str) -> dict[str, float]:
        """Return each class's probability for a question and its embedding."""
        shape = (np.asarray(surface(question)) - self.mean) / self.scale
        x = np.concatenate([np.asarray(embedding, dtype=np.float64), shape])
        if x.shape[0] != self.coef.shape[1]:
            raise ValueError(
                f"embedding has {len(embedding)} dimensions; the router was fitted on"
                f" {self.coef.shape[1] - len(SURFACE)} ({self.embedding})"
            )
        logits = self.coef @ x + self.intercept
        if len(self.classes) == 2:  # a binary fit keeps one row: the second class's log-odds
            p = float(1.0 / (1.0 + np.exp(-logits[0])))
            return {self.classes[0]: 1.0 - p, self.classes[1]: p}
        odds = np.exp(logits - logits.max())
        return dict(zip(self.classes, (float(v) for v in odds / odds.sum()), strict=True))
