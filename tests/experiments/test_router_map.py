"""experiments/router_map.py: the learned router's weights, read strictly, applied as a softmax."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from script_runs import load_script

router_map = load_script(Path(__file__).resolve().parents[2] / "experiments" / "router_map.py")
SURFACE, RouterWeights, surface = router_map.SURFACE, router_map.RouterWeights, router_map.surface

DIM = 4


def weights(classes: list[str], rows: list[list[float]], **extra: Any) -> dict[str, Any]:
    return {
        "classes": classes,
        "coef": rows,
        "intercept": [0.0] * len(rows),
        "mean": [0.0] * len(SURFACE),
        "scale": [1.0] * len(SURFACE),
        "embedding": "local:multilingual-e5-small",
        **extra,
    }


def row(first: float) -> list[float]:
    return [first, 0.0, 0.0, 0.0] + [0.0] * len(SURFACE)


def test_three_classes_give_a_distribution_led_by_the_strongest_logit() -> None:
    w = RouterWeights.from_json(weights(["A", "B", "C"], [row(0.0), row(1.0), row(3.0)]))
    odds = w.probabilities([1.0, 0.0, 0.0, 0.0], "Where was the inventor of X born?")
    assert max(odds, key=odds.__getitem__) == "C"
    assert sum(odds.values()) == pytest.approx(1.0)


def test_a_binary_fit_keeps_one_row_for_the_second_class() -> None:
    w = RouterWeights.from_json(weights(["A", "B"], [row(-2.0)]))
    odds = w.probabilities([1.0, 0.0, 0.0, 0.0], "hi there")
    assert odds["A"] > 0.85 and odds["A"] + odds["B"] == pytest.approx(1.0)


@pytest.mark.parametrize(
    "broken",
    [
        {"classes": ["A", "B", "C"]},  # no coefficients
        weights(["A", "B", "C"], [row(0.0)]),  # one row for three classes
        weights(["A", "X"], [row(0.0)]),  # a class no route stands for
        weights(["A", "B"], [row(0.0)], mean=[0.0]),  # surface features of another version
    ],
)
def test_malformed_weights_are_refused(broken: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        RouterWeights.from_json(broken)


def test_an_embedding_of_another_size_says_which_model_the_router_needs() -> None:
    w = RouterWeights.from_json(weights(["A", "B"], [row(1.0)]))
    with pytest.raises(ValueError, match="multilingual-e5-small"):
        w.probabilities([0.1] * 8, "question")


def test_shape_features_see_chinese_parts_nesting_and_yes_no() -> None:
    names = dict(
        zip(SURFACE, surface("Where was the inventor of the telephone born?"), strict=True)
    )
    assert names["nested"] == 1.0 and names["chinese"] == 0.0 and names["yes_no"] == 0.0
    names = dict(zip(SURFACE, surface("比较一下两款产品的优缺点吗？"), strict=True))
    assert names["chinese"] == 1.0 and names["parts"] == 1.0 and names["yes_no"] == 1.0
    names = dict(zip(SURFACE, surface("Did the Verge report it before TechCrunch?"), strict=True))
    assert names["yes_no"] == 1.0 and names["capitalised"] == pytest.approx(0.4)
