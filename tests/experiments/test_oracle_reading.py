"""experiments/oracle_reading.py: single-shot again with every gold document among its sources."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from adaptive_rag.evaluation.harness import run_eval
from adaptive_rag.knowledge import embeddings
from adaptive_rag.services import Services
from fake_sources import HashEmbeddings
from fakes import ScriptedChatModel

CORPUS = [
    {"doc_id": "inv", "title": "Lamp", "text": "The Aurora lamp was invented by Mira Holt."},
    {"doc_id": "born", "title": "Holt", "text": "Mira Holt was born in the town of Vessel."},
    {"doc_id": "k1", "title": "Kettle", "text": "The Zephyr X2 kettle holds 1.7 litres."},
    {  # a distractor that shares most of the bridge question's words
        "doc_id": "shop",
        "title": "Aurora lamp shop",
        "text": "In which town is the Aurora lamp sold? The Aurora lamp is sold in every town.",
    },
]
QUESTIONS = [
    {  # two gold documents; with k = 2 single-shot reads one of them
        "id": "bridge",
        "question": "In which town was the inventor of the Aurora lamp born?",
        "answers": ["Vessel"],
        "gold_doc_ids": ["inv", "born"],
    },
    {
        "id": "kettle",
        "question": "How much does the Zephyr X2 kettle hold?",
        "answers": ["1.7 litres"],
        "gold_doc_ids": ["k1"],
    },
]


@pytest.fixture
def oracle(monkeypatch: pytest.MonkeyPatch, experiment: Callable[[str], ModuleType]) -> object:
    monkeypatch.setattr(embeddings, "_CACHE", {"local:multilingual-e5-small": HashEmbeddings()})
    return experiment("oracle_reading")


def test_it_answers_again_only_where_a_gold_document_was_missing(
    oracle: object, tmp_path: Path
) -> None:
    questions, corpus = tmp_path / "questions.jsonl", tmp_path / "corpus.jsonl"
    questions.write_text("\n".join(json.dumps(q) for q in QUESTIONS))
    corpus.write_text("\n".join(json.dumps(d) for d in CORPUS))
    model = ScriptedChatModel.with_script(rag="He was born in Vessel [1].")
    folder = tmp_path / "run"
    run_eval(
        str(questions),
        folder,
        configs=("single",),
        corpus=corpus,
        context={"k": 2},
        services=Services(chat_model=model, no_web=True),
        progress=False,
    )
    single = {
        r["id"]: r for r in map(json.loads, (folder / "results.jsonl").read_text().splitlines())
    }
    bridge = single["bridge"]["used_doc_ids"]
    assert "shop" in bridge and len(set(bridge) & {"inv", "born"}) == 1  # one gold missing
    assert "k1" in single["kettle"]["used_doc_ids"]
    out = tmp_path / "gold"
    again = oracle.read_again(  # type: ignore[attr-defined]
        folder, out, Services(chat_model=model, no_web=True), progress=False
    )
    assert [r["id"] for r in again] == ["bridge"]  # the kettle's sources held its gold
    assert set(again[0]["used_doc_ids"]) == {"inv", "born"}  # the distractor made way
    assert again[0]["config"] == "gold_read" and again[0]["acc"] == 1.0
    calls = len(model.calls)
    oracle.read_again(  # type: ignore[attr-defined]
        folder, out, Services(chat_model=model, no_web=True), progress=False
    )
    assert len(model.calls) == calls  # resumed: nothing answered twice
    table = oracle.summary(folder, out)  # type: ignore[attr-defined]
    first = table[0]
    assert (first["kind"], first["pair"], first["n"]) == ("all", "gold_read vs single", 2)
    # the script says "Vessel" to both: right on the bridge, wrong on the kettle, whose
    # gold-read answer is single-shot's own
    assert (first["acc"], first["acc baseline"], first["wins"], first["losses"]) == (0.5, 0.5, 0, 0)
    assert all(row["pair"] == "gold_read vs single" for row in table)  # no adaptive runs here
