"""experiments/model_check.py: the rules and the prompted check on the same answers, notes aside."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from adaptive_rag import Services
from adaptive_rag.prompts.generate import UNVERIFIED_NOTE as NOTES
from langchain_core.language_models.fake_chat_models import FakeListChatModel

UNVERIFIED_NOTE = NOTES["en"]

KETTLE = "Zephyr X2\nThe Zephyr X2 kettle has a 1.7 litre capacity and boils in 3 minutes."
WEB_OFF = (
    "The web could not be searched (web search is off: no TAVILY_API_KEY is set), so this answer"
    " is from the knowledge base only."
)
GROUNDED = '{"grounded": true, "answers_question": true, "feedback": ""}'


def record(i: int, answer: str, **extra: Any) -> dict[str, Any]:
    return {
        "dataset": "kettles",
        "config": "adaptive",
        "id": str(i),
        "question": "How big is the Zephyr X2 kettle?",
        "impossible": False,
        "acc": 1.0,
        "declined": False,
        "answer": answer,
        "sources_read": [KETTLE],
        **extra,
    }


@pytest.fixture
def model_check(experiment: Callable[[str], ModuleType]) -> ModuleType:
    return experiment("model_check")


def test_the_graphs_own_notes_are_set_aside_and_the_rules_read_the_citations(
    model_check: ModuleType, tmp_path: Path
) -> None:
    compare_checks, notices_of = model_check.compare_checks, model_check.notices_of
    runs = tmp_path / "run"
    runs.mkdir()
    rows = [
        # recorded before notices were kept: the notes are known by their templates
        record(1, f"{WEB_OFF}\n\nThe Zephyr X2 holds 1.7 litres [1].\n\n{UNVERIFIED_NOTE}"),
        # recorded with its notices
        record(2, "Note above.\n\nThe Zephyr X2 holds 1.7 litres [1].", notices=["Note above."]),
        record(3, "The Zephyr X2 holds 9 litres [1].", acc=0.0),
        {**record(4, "declined"), "declined": True},
    ]
    (runs / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert notices_of(rows[0]) == [WEB_OFF, UNVERIFIED_NOTE]
    assert notices_of(rows[2]) == []
    model = FakeListChatModel(responses=[GROUNDED] * 3)
    out = tmp_path / "verdicts.jsonl"
    rates = compare_checks([runs], out, 10, Services(no_web=True, chat_model=model))
    checked = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in checked] == ["1", "2", "3"]  # the decline is not an answer to check
    assert [r["checked"] for r in checked] == [
        "The Zephyr X2 holds 1.7 litres .",
        "The Zephyr X2 holds 1.7 litres .",
        "The Zephyr X2 holds 9 litres .",
    ]
    assert [r["rule_flagged"] for r in checked] == [False, False, True]
    assert [r["model_flagged"] for r in checked] == [False, False, False]
    assert rates["answers"] == 3 and rates["rule_flags_wrong"] == 1.0
    assert rates["rule_flags_right"] == 0.0 and rates["model_flags_wrong"] == 0.0
    # a rerun reuses the model's verdicts on the same words: no model call is left to make
    again = compare_checks(
        [runs], out, 10, Services(no_web=True, chat_model=FakeListChatModel(responses=[]))
    )
    timing = ("rule_ms_median",)
    assert {k: v for k, v in again.items() if k not in timing} == {
        k: v for k, v in rates.items() if k not in timing
    }
    assert len(out.read_text().splitlines()) == 3


def test_the_rules_alone_ask_no_model(model_check: ModuleType, tmp_path: Path) -> None:
    runs = tmp_path / "run"
    runs.mkdir()
    rows = [
        record(1, "The Zephyr X2 holds 1.7 litres [1]."),
        record(2, "It holds 9 litres.", acc=0),
    ]
    (runs / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    silent = Services(no_web=True, chat_model=FakeListChatModel(responses=[]))  # fails if asked
    rates = model_check.compare_checks([runs], tmp_path / "v.jsonl", 10, silent, model=False)
    assert rates["rule_flags_right"] == 0.0 and rates["rule_flags_wrong"] == 1.0
    assert rates["model_flags_right"] is None and rates["model_seconds_median"] is None
    assert rates["model_unreadable"] == 0  # not asked is not unreadable


def test_the_script_checks_by_rules_alone_and_names_a_folder_without_runs(
    run_script: Callable[..., str],
    write_runs: Callable[[str, list[dict[str, Any]]], Path],
    tmp_path: Path,
) -> None:
    runs = write_runs("run", [record(1, "The Zephyr X2 holds 1.7 litres [1].")])
    out = run_script("model_check.py", runs, "--rules-only", "--out", tmp_path / "v.jsonl")
    assert "rule_flags_right" in out and len((tmp_path / "v.jsonl").read_text().splitlines()) == 1
    error = run_script("model_check.py", tmp_path / "no-run", code=2)
    assert "no results.jsonl" in error
