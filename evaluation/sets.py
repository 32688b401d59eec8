"""The evaluation sets: questions with gold answers over a corpus, and seeded samples of them."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adaptive_rag.evaluation.data import eval_data_dir, read_jsonl

KB_DESCRIPTIONS = {
    "squad2": "Wikipedia paragraphs on many topics (history, science, places, people)",
    "multihop_rag": "news articles from late 2023 (technology, business, sports, entertainment)",
    "cmrc2018": "中文维基百科段落（Chinese Wikipedia passages on many topics）",
    "traffic_mix": "Wikipedia paragraphs in English and Chinese on many topics, news articles from"
    " late 2023, and Chinese passages about 岚州, a made-up region (its rivers, towns, companies,"
    " people)",
    "traffic_company": "Quillon Labs' documents (English and Chinese): the company, its Kestrel"
    " sensors and Heron hub, warranty and returns, troubleshooting, after-sales service in China",
    "traffic_handbook": "Norhaven Systems' documents (English and Chinese): the employee handbook"
    " (working hours, leave, remote work, expenses, onboarding), IT security and help desk,"
    " returns, warranty, shipping and payment terms, the Falcon F4 scanner and K2 label printer,"
    " and the Suzhou distribution centre's rules and after-sales service in China",
}
MIX_SETS = ("traffic_mix", "traffic_company", "traffic_handbook")
"""Named sets read by evaluation.mix (benchmarks/sets/traffic_mix, benchmarks/sets/handbook);
their corpora are built."""


@dataclass
class EvalSet:
    """Questions (with gold answers and documents) over a corpus."""

    name: str
    questions: list[dict[str, Any]]  # id, question, answers, gold_doc_ids, impossible, kind
    corpus: list[dict[str, Any]]  # doc_id, text, title


def question(
    qid: str,
    text: str,
    answers: list[str],
    gold: list[str],
    impossible: bool,
    kind: str = "",
    *,
    history: list[str] | None = None,
    requires: list[list[str]] | None = None,
    language: str | None = None,
    held_out: bool | None = None,
) -> dict[str, Any]:
    """Return one evaluation question in the common shape (kind: its type or stratum).

    The optional fields are added only when given: `history` (the thread's earlier user
    questions, in order), `requires` (groups of golds; an answer must hold one of each),
    `language` and `held_out`.
    """
    q: dict[str, Any] = {
        "id": str(qid),
        "question": text,
        "answers": answers,
        "gold_doc_ids": gold,
        "impossible": impossible,
        "kind": kind or ("unanswerable" if impossible else "answerable"),
    }
    optional = {"history": history, "requires": requires, "language": language}
    q.update((key, value) for key, value in optional.items() if value is not None)
    if held_out is not None:
        q["held_out"] = held_out
    return q


def load_eval_set(name: str, corpus: Path | None = None) -> EvalSet:
    """Load a shared set by name, or a JSONL of questions with a JSONL corpus beside it."""
    if name == "squad2":
        base = eval_data_dir() / "squad2"
        qs = [
            question(r["id"], r["question"], r["answers"], r["gold_doc_ids"], r["is_impossible"])
            for r in read_jsonl(base / "questions.jsonl")
        ]
        return EvalSet(name, qs, read_jsonl(base / "corpus.jsonl"))
    if name == "multihop_rag":
        base = eval_data_dir() / "multihop_rag"
        qs = [
            question(
                r["id"],
                r["query"],
                [r["answer"]],
                r["gold_doc_ids"],
                r.get("question_type") == "null_query",
                str(r.get("question_type") or ""),
            )
            for r in read_jsonl(base / "queries.jsonl")
        ]
        return EvalSet(name, qs, read_jsonl(base / "evidence_corpus.jsonl"))
    if name == "cmrc2018":
        base = eval_data_dir() / "cmrc2018"
        qs = [
            question(r["id"], r["question"], r["answers"], r["gold_doc_ids"], False)
            for r in read_jsonl(base / "cmrc2018_dev500_questions.jsonl")
        ]
        return EvalSet(name, qs, read_jsonl(base / "cmrc2018_dev500_corpus.jsonl"))
    if name in MIX_SETS:
        from adaptive_rag.evaluation import mix

        return EvalSet(name, questions_of(mix.mix_records(name)), mix.mix_corpus(name))
    path = Path(name)
    if not path.is_file() or corpus is None or not corpus.is_file():
        raise ValueError(
            f"unknown data set {name!r}: use squad2, multihop_rag, cmrc2018, traffic_mix,"
            " traffic_company, traffic_handbook, or a questions JSONL"
            " with --corpus CORPUS.jsonl (doc_id, text)"
        )
    return EvalSet(path.stem, questions_of(read_jsonl(path)), read_jsonl(corpus))


def questions_of(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Turn records of a questions JSONL into the common shape, keeping the optional fields."""
    qs = []
    for i, r in enumerate(records):
        answers = r.get("answers") or ([r["answer"]] if r.get("answer") else [])
        qs.append(
            question(
                str(r.get("id", i)),
                r["question"],
                answers,
                list(r.get("gold_doc_ids", [])),
                bool(r.get("is_impossible")),
                str(r.get("question_type") or ""),
                history=r.get("history"),
                requires=r.get("requires"),
                language=r.get("language"),
                held_out=r.get("held_out"),
            )
        )
    return qs


def of_kinds(data: EvalSet, kinds: tuple[str, ...]) -> EvalSet:
    """Keep only the questions of these kinds (all with none); an unknown kind is refused."""
    if not kinds:
        return data
    held = sorted({q["kind"] for q in data.questions})
    unknown = sorted(set(kinds) - set(held))
    if unknown:
        raise ValueError(f"{data.name} has no questions of kind {unknown}; its kinds: {held}")
    kept = [q for q in data.questions if q["kind"] in kinds]
    return EvalSet(data.name, kept, data.corpus)


def canard_rows() -> list[dict[str, Any]]:
    """Return the CANARD follow-ups: history (alternating turns), question, gold rewrite."""
    return read_jsonl(eval_data_dir() / "canard" / "canard_dev_300.jsonl")


def routing_rows() -> list[dict[str, Any]]:
    """Return the routing set: questions with the Adaptive-RAG paper's silver labels."""
    return read_jsonl(eval_data_dir() / "routing" / "adaptive_rag_silver_dev.jsonl")


def retrieval_sets(names: list[str] | None = None) -> list[EvalSet]:
    """Return the shared sets' answerable questions that name gold documents (for Hit@k)."""
    sets = []
    for name in names or ["multihop_rag", "squad2", "cmrc2018"]:
        full = load_eval_set(name)
        answerable = [q for q in full.questions if q["gold_doc_ids"] and not q["impossible"]]
        sets.append(EvalSet(name, answerable, full.corpus))
    return sets


def pick(
    questions: list[dict[str, Any]], limit: int, sample: bool, seed: int
) -> list[dict[str, Any]]:
    """Take the first `limit` questions, or a seeded sample stratified by kind.

    Each kind (question type, or answerable / unanswerable) gets a share of the sample in
    proportion to its share of the set, at least one question, so small strata are measured.
    """
    if not sample:
        return list(questions)[:limit] if limit else list(questions)
    rng = random.Random(seed)
    strata: dict[str, list[dict[str, Any]]] = {}
    for q in questions:
        strata.setdefault(str(q.get("kind", "")), []).append(q)
    for members in strata.values():
        rng.shuffle(members)
    if not limit or limit >= len(questions):
        chosen = [q for members in strata.values() for q in members]
        rng.shuffle(chosen)
        return chosen
    quota = {k: max(1, round(limit * len(m) / len(questions))) for k, m in strata.items()}
    while sum(quota.values()) > limit:  # rounding up small strata can overshoot
        largest = max(quota, key=lambda k: quota[k])
        quota[largest] -= 1
    while sum(quota.values()) < limit:
        roomiest = max(strata, key=lambda k: len(strata[k]) - quota[k])
        quota[roomiest] += 1
    chosen = [q for k, members in strata.items() for q in members[: quota[k]]]
    rng.shuffle(chosen)
    return chosen
