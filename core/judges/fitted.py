"""Fitted judges: small logistic models shipped as JSON, applied without scikit-learn.

`adaptive-rag eval fit-judges` fits them on labelled runs and writes one JSON file each: the
feature names, the standardisation (mean, scale), the coefficients, the thresholds chosen from
held-out measurements, and what they were fitted for (the embedding and chat models whose
scores they read). A judge whose inputs came from other models is not applied as if they had
not: `fitted_for` lets the caller fall back and say so.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Protocol

WEIGHTS_DIR = Path(__file__).with_name("weights")
"""Where the package's fitted judges live (package data)."""


class Judge(Protocol):
    """What a node needs of a judge: a probability per example, and its named cut-offs."""

    @property
    def thresholds(self) -> dict[str, float]:
        """Return the named cut-offs on the probability."""
        ...

    def probability(self, values: dict[str, float]) -> float:
        """Return the probability for one example's features."""
        ...


@dataclass(frozen=True)
class Logistic:
    """A fitted logistic model over named features (missing features count as their mean)."""

    name: str
    features: tuple[str, ...]
    coef: tuple[float, ...]
    intercept: float
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    thresholds: dict[str, float] = field(default_factory=dict)
    """Named cut-offs on the probability, chosen from held-out measurements."""
    fitted_for: dict[str, str] = field(default_factory=dict)
    """The models whose scores the features read, e.g. {"embedding_model": "local:e5-small"}."""

    def probability(self, values: dict[str, float]) -> float:
        """Return the model's probability for one example."""
        z = self.intercept
        for name, c, mu, s in zip(self.features, self.coef, self.mean, self.scale, strict=True):
            z += c * (float(values.get(name, mu)) - mu) / (s or 1.0)
        return 1.0 / (1.0 + math.exp(-max(min(z, 40.0), -40.0)))

    def applies_to(self, **models: str) -> str:
        """Return '' when fitted for these models, else why not (for diagnostics)."""
        for key, value in models.items():
            wanted = self.fitted_for.get(key)
            if wanted and wanted != value:
                return f"{self.name} was fitted for {key} {wanted!r}, not {value!r}"
        return ""

    def to_json(self, **extra: Any) -> dict[str, Any]:
        """Return the model as the JSON object it is shipped as (plus any report fields)."""
        return {
            "name": self.name,
            "features": list(self.features),
            "coef": [round(c, 6) for c in self.coef],
            "intercept": round(self.intercept, 6),
            "mean": [round(m, 6) for m in self.mean],
            "scale": [round(s, 6) for s in self.scale],
            "thresholds": {k: round(v, 4) for k, v in self.thresholds.items()},
            "fitted_for": dict(self.fitted_for),
            **extra,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Logistic:
        """Read a model written by `to_json`."""
        features = tuple(str(f) for f in data["features"])
        n = len(features)
        coef = tuple(float(c) for c in data["coef"])
        mean = tuple(float(m) for m in data.get("mean") or [0.0] * n)
        scale = tuple(float(s) for s in data.get("scale") or [1.0] * n)
        if not len(coef) == len(mean) == len(scale) == n:
            raise ValueError(f"judge {data.get('name')!r}: features and weights differ in length")
        return cls(
            name=str(data.get("name", "judge")),
            features=features,
            coef=coef,
            intercept=float(data["intercept"]),
            mean=mean,
            scale=scale,
            thresholds={k: float(v) for k, v in (data.get("thresholds") or {}).items()},
            fitted_for={k: str(v) for k, v in (data.get("fitted_for") or {}).items()},
        )


@cache
def load_judge(name: str, folder: Path = WEIGHTS_DIR) -> Logistic | None:
    """Return the shipped judge `name` (weights/<name>.json), or None when none is shipped."""
    path = folder / f"{name}.json"
    try:
        return Logistic.from_json(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        return None
