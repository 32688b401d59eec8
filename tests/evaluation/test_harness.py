"""The evaluation harness on a tiny custom data set with scripted models: records, resume, report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from adaptive_rag.evaluation.aggregate import summarize
from adaptive_rag.evaluation.harness import citations_supported, run_eval
from adaptive_rag.evaluation.report import build_report
from adaptive_rag.evaluation.routing import summarize_routing
from adaptive_rag.knowledge import embeddings
from adaptive_rag.services import Services
from fake_sources import HashEmbeddings
from fakes import ScriptedChatModel

CORPUS = [
    {"doc_id": "k1", "title": "Kettle", "text": "The Zephyr X2 kettle holds 1.7 litres of water."},
    {"doc_id": "l1", "title": "Lamp", "text": "The Aurora lamp uses 9 watts of power."},
    {"doc_id": "r1", "title": "Returns", "text": "Returns are accepted within 30 days."},
]
QUESTIONS = [
    {
        "id": "q1",
        "question": "How much water does the Zephyr X2 kettle hold?",
        "answers": ["1.7 litres"],
        "gold_doc_ids": ["k1"],
    },
    {
        "id": "q2",
        "question": "How many watts does the Aurora lamp use?",
        "answers": ["9 watts"],
        "gold_doc_ids": ["l1"],
    },
    {"id": "q3", "question": "Hello!", "answers": ["hello"], "gold_doc_ids": []},
]


@pytest.fixture
def dataset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.setattr(embeddings, "_CACHE", {"local:multilingual-e5-small": HashEmbeddings()})
    questions, corpus = tmp_path / "questions.jsonl", tmp_path / "corpus.jsonl"
    questions.write_text("\n".join(json.dumps(q) for q in QUESTIONS))
    corpus.write_text("\n".join(json.dumps(d) for d in CORPUS))
    return questions, corpus


def test_runs_three_configurations_resumes_and_reports(
    dataset: tuple[Path, Path], tmp_path: Path
) -> None:
    questions, corpus = dataset
    model = ScriptedChatModel.with_script(rag="It holds 1.7 litres [1].")
    out = tmp_path / "run"
    results = run_eval(
        str(questions),
        out,
        corpus=corpus,
        services=Services(chat_model=model, no_web=True),
        progress=False,
    )
    records = [json.loads(line) for line in results.read_text().splitlines()]
    assert len(records) == 9 and {r["config"] for r in records} == {"adaptive", "full", "single"}
    by = {(r["config"], r["id"]): r for r in records}
    assert by[("single", "q1")]["steps"] == ["intake", "retrieve", "generate", "finalize"]
    assert by[("single", "q1")]["model_calls"] == 1
    assert "self_check" in by[("full", "q1")]["steps"]  # the full pipeline always checks
    assert by[("full", "q1")]["steps"][:4] == [
        "intake",
        "transform_query",
        "retrieve",
        "grade_documents",
    ]
    assert (
        by[("adaptive", "q3")]["route"] == "general" and by[("adaptive", "q3")]["retrievals"] == 0
    )
    assert by[("adaptive", "q1")]["used_doc_ids"][0] == "k1"
    assert by[("adaptive", "q1")]["f1"] == 2 / 3 and by[("adaptive", "q1")]["acc"] == 1.0
    assert set(by[("adaptive", "q1")]["features"]) >= {"agreement", "grounded", "declined"}
    assert by[("adaptive", "q1")]["first_acc"] == 1.0 and by[("adaptive", "q1")]["turns"] == 1
    assert by[("adaptive", "q1")]["history_seconds"] == 0.0
    kettle = by[("adaptive", "q1")]  # "It holds 1.7 litres [1]." over the kettle's page
    assert kettle["citations_supported"] is True and kettle["sources_read"][0].startswith("Kettle")
    assert kettle["answer_features"]["grounded"] == 1.0
    assert [j["node"] for j in kettle["judgments"]][:2] == ["classify", "grade_documents"]
    assert by[("adaptive", "q3")]["citations_supported"] is None  # a greeting cites nothing
    for record in records:  # every node that ran is timed, and the times add up to the run's
        assert set(record["node_seconds"]) == set(record["steps"])
        assert sum(record["node_seconds"].values()) <= record["seconds"] + 0.01
    calls_before = len(model.calls)
    run_eval(
        str(questions),
        out,
        corpus=corpus,
        services=Services(chat_model=model, no_web=True),
        progress=False,
    )
    assert (
        len(results.read_text().splitlines()) == 9 and len(model.calls) == calls_before
    )  # resumed
    with pytest.raises(ValueError, match="use another --out"):  # other settings, same folder
        run_eval(str(questions), out, corpus=corpus, context={"k": 2}, progress=False)
    with pytest.raises(ValueError, match="use another --out"):  # a narrowed sample, same folder
        run_eval(str(questions), out, corpus=corpus, kinds=("answerable",), progress=False)
    summary = {r["config"]: r for r in summarize(records)}
    assert (
        summary["single"]["calls_median"] == 1
        and summary["full"]["tokens_mean"] > summary["single"]["tokens_mean"]
    )
    report = build_report(out).read_text()
    assert "## Answers, retrieval and cost" in report and "adaptive vs single" in report
    assert "full vs single" in report  # every configuration is paired with single-shot
    assert "## By question type" in report
    assert "## Where the time goes" in report
    timed = json.loads((out / "summary.json").read_text())["by_node"]
    single_q = [r for r in timed if r["config"] == "single"]
    assert {r["node"] for r in single_q} == {"intake", "retrieve", "generate", "finalize"}
    assert (
        all(r["runs"] == "3/3" for r in single_q)
        and abs(sum(r["share"] for r in single_q) - 1) < 0.03
    )
    assert (out / "cost_vs_quality.png").stat().st_size > 1000
    assert (out / "latency_by_route.png").exists() and (out / "summary.json").exists()


def test_a_declined_run_keeps_the_answer_its_decline_replaced(
    dataset: tuple[Path, Path], tmp_path: Path
) -> None:
    questions, corpus = dataset
    said = "The sources do not say how much water it holds."
    model = ScriptedChatModel.with_script(rag=said)
    results = run_eval(
        str(questions),
        tmp_path / "run",
        configs=("adaptive",),
        corpus=corpus,
        services=Services(chat_model=model, no_web=True),
        progress=False,
    )
    records = [json.loads(line) for line in results.read_text().splitlines()]
    by = {r["id"]: r for r in records}
    kettle = by["q1"]
    assert kettle["declined"] and kettle["decline_reason"] == "not_in_sources"
    assert kettle["answer"] != said and kettle["written"] == said
    assert kettle["first_answer"] == said and kettle["first_acc"] == 0.0  # written, then declined
    assert by["q3"]["written"] == ""  # answered (a greeting): nothing replaced


def test_unknown_configuration_or_data_set_is_a_clear_error(
    dataset: tuple[Path, Path], tmp_path: Path
) -> None:
    questions, corpus = dataset
    with pytest.raises(ValueError, match="unknown configurations"):
        run_eval(str(questions), tmp_path / "x", configs=("magic",), corpus=corpus)
    with pytest.raises(ValueError, match="unknown data set"):
        run_eval("nope", tmp_path / "x")


def test_routing_summary() -> None:
    confusion = {
        "general": {"general": 3, "simple": 1, "complex": 0, "realtime": 0, "follow_up": 0},
        "simple": {"general": 1, "simple": 4, "complex": 0, "realtime": 0, "follow_up": 0},
        "complex": {"general": 0, "simple": 1, "complex": 2, "realtime": 0, "follow_up": 0},
    }
    result = summarize_routing(confusion, [0.1, 0.2], {"rule": 2})
    assert result["n"] == 12 and result["accuracy"] == 0.75
    assert result["needed_retrieval_recall"] == round(7 / 8, 3)
    assert result["per_class"]["complex"]["precision"] == 1.0


def test_fixed_strategies_derive_labels_and_judge_the_router(
    dataset: tuple[Path, Path], tmp_path: Path
) -> None:
    questions, corpus = dataset
    model = ScriptedChatModel.with_script(
        direct="It uses 9 watts.",  # right for q2 only: q2 is A
        rag="It holds 1.7 litres [1].",  # right for q1: q1 is B
        hops_answer="Hello to you [1].",  # right for q3 only: q3 is C
    )
    out = tmp_path / "labels"
    run_eval(
        str(questions),
        out,
        configs=("adaptive", "direct", "single", "multi"),
        corpus=corpus,
        services=Services(chat_model=model, no_web=True),
        progress=False,
    )
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    by = {(r["config"], r["id"]): r for r in records}
    assert by[("direct", "q1")]["retrievals"] == 0 and by[("direct", "q1")]["model_calls"] == 1
    assert "hop" in by[("multi", "q1")]["steps"]
    report = build_report(out).read_text()
    labels = {
        row["id"]: row["label"]
        for row in map(json.loads, (out / "labels.jsonl").read_text().splitlines())
    }
    assert labels == {"q1": "B", "q2": "A", "q3": "C"}
    assert "## Routing against derived labels" in report and "multi vs single" in report
    judged = json.loads((out / "summary.json").read_text())["derived_routing"]
    strategies = {row["strategy"]: row for row in judged["strategies"]}
    assert strategies["oracle"]["acc"] == 1.0
    assert strategies["always single"]["acc"] == round(1 / 3, 3)
    assert judged["labelled"] == 3 and sum(judged["labels"].values()) == 3


def test_a_citation_counts_when_its_sentence_claims_something() -> None:
    sources = [
        "The Zephyr kettle holds 1.7 litres and boils in 3 minutes.",
        "Heron hubs pair by QR.",
    ]
    question = "How much does the Zephyr kettle hold?"

    def supported(answer: str) -> bool | None:
        return citations_supported({"answer": answer}, sources, question)

    assert supported("It holds 1.7 litres [1]. This is stated in the source [1].") is True
    assert supported("It holds 1.7 litres [2].") is False  # [2] does not say it
    assert supported("It holds 2.5 litres [1].") is False  # nor does [1]
    assert supported("This is stated in the source [1].") is None  # nothing claimed
    assert supported("It holds 1.7 litres.") is None  # nothing cited


def test_a_thread_sends_its_earlier_turns_and_scores_only_the_last(
    dataset: tuple[Path, Path], tmp_path: Path
) -> None:
    _, corpus = dataset
    lamp = "How many watts does the Aurora lamp use?"
    follow_up = "And the Zephyr X2 kettle, how much water does it hold?"
    thread = {
        "id": "t1",
        "question": follow_up,
        "answers": ["1.7 litres"],
        "gold_doc_ids": ["k1"],
        "history": [lamp],
    }
    questions = tmp_path / "thread.jsonl"
    questions.write_text(json.dumps(thread) + "\n")

    def rag(user: str) -> str:
        return "It holds 1.7 litres [1]." if "kettle" in user.lower() else "It uses 9 watts [1]."

    model = ScriptedChatModel.with_script(
        rag=rag, rewrite="How much water does the Zephyr X2 kettle hold?"
    )
    out = tmp_path / "run"
    results = run_eval(
        str(questions),
        out,
        configs=("adaptive", "single", "direct"),
        corpus=corpus,
        services=Services(chat_model=model, no_web=True),
        progress=False,
    )
    records = {r["config"]: r for r in map(json.loads, results.read_text().splitlines())}
    assert set(records) == {"adaptive", "single", "direct"}  # one record per thread
    asked = [user for role, user in model.calls if role in ("rag", "direct")]
    assert sum(lamp in user for user in asked) == 3  # the first turn reached every configuration
    assert sum("rewrite" == role for role, _ in model.calls) == 1  # only the graph remembers
    for record in records.values():
        assert record["question"] == follow_up and record["turns"] == 2
        assert record["history"] == [lamp] and record["history_seconds"] > 0
        assert "watts" not in record["answer"]  # the scored answer is the last turn's
        assert record["steps"].count("intake") == 1  # the last turn's steps and costs only
        assert sum(record["node_seconds"].values()) <= record["seconds"] + 0.01
    single = records["single"]
    assert single["model_calls"] == 1 and single["acc"] == 1.0  # counted for the last turn
    assert single["first_answer"] == "It holds 1.7 litres ." and single["first_acc"] == 1.0
    assert (
        records["adaptive"]["acc"] == 1.0 and "rewrite_with_history" in records["adaptive"]["steps"]
    )
    calls = len(model.calls)
    run_eval(
        str(questions),
        out,
        configs=("adaptive", "single", "direct"),
        corpus=corpus,
        services=Services(chat_model=model, no_web=True),
        progress=False,
    )
    assert len(model.calls) == calls and len(results.read_text().splitlines()) == 3  # resumed
