"""The traffic-mix sets: their loader, their corpora, and the committed files' proportions."""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from adaptive_rag.evaluation import mix
from adaptive_rag.evaluation.data import eval_data_dir, read_jsonl
from adaptive_rag.evaluation.sets import KB_DESCRIPTIONS, load_eval_set, question

NO_KB = {"general", "chat", "arithmetic"}
MIX_COUNTS = {
    "general": 54,
    "chat": 15,
    "arithmetic": 15,
    "kb_simple": 36,
    "kb_multihop": 30,
    "follow_up": 14,
    "kb_unanswerable": 20,
    "realtime": 12,
    "half": 14,
}


def shared_data() -> bool:
    try:
        eval_data_dir()
    except FileNotFoundError:
        return False
    return True


needs_shared = pytest.mark.skipif(not shared_data(), reason="no shared evaluation data here")


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    return path


def test_a_question_without_the_new_fields_keeps_the_old_shape() -> None:
    q = question("1", "Who?", ["A"], ["d1"], False, "bridge")
    assert set(q) == {"id", "question", "answers", "gold_doc_ids", "impossible", "kind"}


def test_a_question_carries_history_requires_language_and_held_out() -> None:
    q = question(
        "1",
        "And it?",
        ["x", "y"],
        [],
        False,
        history=["First?"],
        requires=[["x"], ["y"]],
        language="en",
        held_out=False,
    )
    assert q["history"] == ["First?"]
    assert q["requires"] == [["x"], ["y"]]
    assert (q["language"], q["held_out"]) == ("en", False)


def test_a_questions_jsonl_keeps_its_optional_fields(tmp_path: Path) -> None:
    rows = [
        {
            "id": "a",
            "question": "Q1",
            "answers": ["1"],
            "gold_doc_ids": ["d"],
            "question_type": "follow_up",
            "history": ["Q0"],
            "language": "zh",
            "held_out": True,
        },
        {"id": "b", "question": "Q2", "answers": ["2"], "gold_doc_ids": ["d"]},
    ]
    questions = write_jsonl(tmp_path / "q.jsonl", rows)
    corpus = write_jsonl(tmp_path / "c.jsonl", [{"doc_id": "d", "text": "t"}])
    first, second = load_eval_set(str(questions), corpus).questions
    assert (first["history"], first["language"], first["held_out"]) == (["Q0"], "zh", True)
    assert first["kind"] == "follow_up"
    assert "history" not in second and "held_out" not in second and "requires" not in second


def test_the_union_corpus_refuses_a_doc_id_two_corpora_share(tmp_path: Path) -> None:
    a = write_jsonl(tmp_path / "a.jsonl", [{"doc_id": "x", "text": "one"}])
    b = write_jsonl(tmp_path / "b.jsonl", [{"doc_id": "y", "text": "two"}])
    c = write_jsonl(tmp_path / "c.jsonl", [{"doc_id": "x", "text": "three"}])
    assert [d["doc_id"] for d in mix.union_corpus([a, b])] == ["x", "y"]
    with pytest.raises(ValueError, match="'x'"):
        mix.union_corpus([a, b, c])


def test_a_folder_corpus_is_one_document_per_file(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.md").write_text("intro\n\n# Alpha title\n\nbody")
    (tmp_path / "sub" / "b.md").write_text("no heading here")
    docs = mix.folder_corpus(tmp_path)
    assert [(d["doc_id"], d["title"]) for d in docs] == [("a.md", "Alpha title"), ("sub/b.md", "b")]
    assert docs[0]["text"] == "intro\n\n# Alpha title\n\nbody"


def test_both_sets_describe_their_knowledge_base() -> None:
    assert "Quillon" in KB_DESCRIPTIONS["traffic_company"]
    assert "Wikipedia" in KB_DESCRIPTIONS["traffic_mix"]


def test_traffic_mix_holds_the_mix_it_promises() -> None:
    rows = mix.mix_records("traffic_mix")
    kinds = Counter(r["question_type"] for r in rows)
    assert dict(kinds) == MIX_COUNTS
    assert sum(kinds[k] for k in NO_KB) / len(rows) == pytest.approx(0.4)
    assert len({r["id"] for r in rows}) == len({r["question"] for r in rows}) == len(rows)
    for kind, n in MIX_COUNTS.items():
        held = sum(r["held_out"] for r in rows if r["question_type"] == kind)
        assert held == round(n / 3), kind
    general = Counter(r["language"] for r in rows if r["question_type"] == "general")
    assert general == {"en": 30, "zh": 24}


def test_traffic_mix_marks_what_each_kind_needs() -> None:
    rows = mix.mix_records("traffic_mix")
    for r in rows:
        kind = r["question_type"]
        assert r["is_impossible"] == (kind in ("kb_unanswerable", "realtime")), r["id"]
        if kind in NO_KB | {"realtime"}:
            assert r["gold_doc_ids"] == [], r["id"]
        elif kind != "kb_unanswerable":  # MultiHop-RAG's null queries name no document
            assert r["gold_doc_ids"], r["id"]
        assert ("history" in r) == (kind == "follow_up"), r["id"]
        assert ("requires" in r) == (kind == "half"), r["id"]
        if kind == "half":
            kb, general = r["requires"]
            assert kb and general and r["answers"] == kb + general
        if kind == "chat":
            assert r["answers"] == []


def test_company_reuses_traffic_mix_general_questions() -> None:
    mixed = {r["id"]: r for r in mix.mix_records("traffic_mix")}
    rows = mix.mix_records("traffic_company")
    general = [r for r in rows if r["question_type"] == "general"]
    assert len(general) == 54
    for r in general:
        twin = mixed["tm-" + r["id"].removeprefix("co-")]
        assert (r["question"], r["answers"], r["held_out"]) == (
            twin["question"],
            twin["answers"],
            twin["held_out"],
        )


def test_traffic_company_loads_over_the_sample_knowledge_base() -> None:
    data = load_eval_set("traffic_company")
    doc_ids = {d["doc_id"] for d in data.corpus}
    assert "company.md" in doc_ids and "zh/售后服务.md" in doc_ids
    kinds = Counter(q["kind"] for q in data.questions)
    assert kinds["kb_simple"] == 20 and kinds["kb_unanswerable"] == 10
    assert all(set(q["gold_doc_ids"]) <= doc_ids for q in data.questions)
    assert all(q["language"] in ("en", "zh") and "held_out" in q for q in data.questions)


@needs_shared
def test_traffic_mix_loads_with_its_corpus_and_fields() -> None:
    data = load_eval_set("traffic_mix")
    doc_ids = {d["doc_id"] for d in data.corpus}
    assert len(doc_ids) == len(data.corpus)
    assert all(set(q["gold_doc_ids"]) <= doc_ids for q in data.questions)
    follow_ups = [q for q in data.questions if q["kind"] == "follow_up"]
    assert follow_ups and all(len(q["history"]) == 1 for q in follow_ups)
    assert all(len(q["requires"]) == 2 for q in data.questions if q["kind"] == "half")
    assert sum(q["held_out"] for q in data.questions) == 71


@needs_shared
def test_the_committed_sets_are_what_build_py_makes_now() -> None:
    path = mix.MIX_DIR / "build.py"
    spec = importlib.util.spec_from_file_location("traffic_mix_build", path)
    assert spec and spec.loader
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    corpus = {d["doc_id"]: d for d in mix.traffic_corpus()}
    made = build.traffic_mix(corpus)
    assert made == read_jsonl(mix.MIX_DIR / "traffic_mix.jsonl")
    assert build.company(made) == read_jsonl(mix.MIX_DIR / "company.jsonl")
