"""Locate and read the shared evaluation sets (../shared/data beside the project)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def data_dir() -> Path:
    """Return the shared data folder (ADAPTIVE_RAG_EVAL_DATA overrides ../shared/data)."""
    configured = os.environ.get("ADAPTIVE_RAG_EVAL_DATA")
    folder = Path(configured) if configured else ROOT.parent / "shared" / "data"
    if not folder.is_dir():
        raise FileNotFoundError(
            f"evaluation data not found at {folder}; set ADAPTIVE_RAG_EVAL_DATA to its folder"
        )
    return folder


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Read a JSONL file into dicts."""
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]


@dataclass
class RetrievalSet:
    """Questions with gold document ids over a corpus."""

    name: str
    questions: list[dict[str, Any]]  # question, gold_doc_ids, answers
    corpus: list[dict[str, Any]]  # doc_id, text, title


def retrieval_sets(names: list[str] | None = None) -> list[RetrievalSet]:
    """Load multihop_rag, squad2 and cmrc2018 with a common shape."""
    base = data_dir()
    sets = []
    wanted = names or ["multihop_rag", "squad2", "cmrc2018"]
    if "multihop_rag" in wanted:
        qs = [
            {"question": q["query"], "gold_doc_ids": q["gold_doc_ids"], "answers": [q["answer"]]}
            for q in read_jsonl(base / "multihop_rag" / "queries.jsonl")
            if q.get("gold_doc_ids")
        ]
        sets.append(
            RetrievalSet(
                "multihop_rag", qs, read_jsonl(base / "multihop_rag" / "evidence_corpus.jsonl")
            )
        )
    if "squad2" in wanted:
        qs = [q for q in read_jsonl(base / "squad2" / "questions.jsonl") if not q["is_impossible"]]
        sets.append(RetrievalSet("squad2", qs, read_jsonl(base / "squad2" / "corpus.jsonl")))
    if "cmrc2018" in wanted:
        folder = base / "cmrc2018"
        sets.append(
            RetrievalSet(
                "cmrc2018",
                read_jsonl(folder / "cmrc2018_dev500_questions.jsonl"),
                read_jsonl(folder / "cmrc2018_dev500_corpus.jsonl"),
            )
        )
    return sets


def corpus_to_jsonl(corpus: list[dict[str, Any]], path: Path) -> Path:
    """Write a corpus as ingestible JSONL (text plus doc_id and title)."""
    with path.open("w", encoding="utf-8") as out:
        for doc in corpus:
            record = {
                "text": doc["text"],
                "doc_id": doc["doc_id"],
                "title": doc.get("title") or doc["doc_id"],
            }
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path
