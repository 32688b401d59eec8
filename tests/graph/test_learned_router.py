"""Context router='learned': the classifier routes without a model call, or says why it cannot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from adaptive_rag import Context
from adaptive_rag.core import router
from adaptive_rag.core.router import SURFACE
from adaptive_rag.nodes import classify
from fakes import HashEmbeddings


@pytest.fixture(autouse=True)
def _hashed_embeddings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(classify, "load_embeddings", lambda spec: HashEmbeddings())


def write_weights(path: Path, intercept: list[float]) -> Path:
    width = HashEmbeddings.dim + len(SURFACE)
    path.write_text(
        json.dumps(
            {
                "classes": ["A", "B", "C"],
                "coef": [[0.0] * width for _ in intercept],
                "intercept": intercept,
                "mean": [0.0] * len(SURFACE),
                "scale": [1.0] * len(SURFACE),
                "embedding": "local:multilingual-e5-small",
            }
        )
    )
    return path


def test_the_learned_router_routes_without_asking_the_model(
    make_harness: Any, tmp_path: Path
) -> None:
    weights = write_weights(tmp_path / "router.json", [0.0, 0.0, 4.0])
    h = make_harness()
    out = h.ask("Tell me about the Zephyr X2 kettle", router="learned", router_weights=str(weights))
    assert out["route"]["method"] == "learned" and out["route"]["category"] == "complex"
    assert out["route"]["reason"].startswith("learned router: C (p=0.96)")
    assert "classify" not in h.model.roles()


def test_rules_still_come_first(make_harness: Any, tmp_path: Path) -> None:
    weights = write_weights(tmp_path / "router.json", [0.0, 0.0, 4.0])
    out = make_harness().ask("Hello!", router="learned", router_weights=str(weights))
    assert out["route"]["method"] == "rule" and out["route"]["category"] == "general"


def test_a_general_verdict_still_checks_the_knowledge_base(
    make_harness: Any, tmp_path: Path
) -> None:
    weights = write_weights(tmp_path / "router.json", [4.0, 0.0, 0.0])
    out = make_harness().ask(
        "What is photosynthesis?", router="learned", router_weights=str(weights)
    )
    assert out["route"]["method"] == "learned" and out["route"]["category"] == "general"
    assert out["diagnostics"]["retrievals"] == 1


def test_without_package_weights_the_model_routes_and_the_reason_says_so(
    make_harness: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(router, "ROUTER_FILE", tmp_path / "absent.json")
    h = make_harness()
    out = h.ask("Tell me about the Zephyr X2 kettle", router="learned")
    assert out["route"]["method"] == "model"
    assert (
        "learned router unavailable: this version ships no router weights"
        in (out["route"]["reason"])
    )
    assert h.model.roles()["classify"] == 1


def test_unreadable_weights_degrade_to_the_model(make_harness: Any, tmp_path: Path) -> None:
    broken = tmp_path / "router.json"
    broken.write_text("{not json")
    out = make_harness().ask(
        "Tell me about the Zephyr X2 kettle", router="learned", router_weights=str(broken)
    )
    assert out["route"]["method"] == "model"
    assert "learned router unavailable: JSONDecodeError" in out["route"]["reason"]
    assert out["answer"]


def test_an_unknown_router_is_refused() -> None:
    with pytest.raises(ValueError, match="router must be one of rules\\+model, learned"):
        Context(router="neural")
