"""Locate and read the shared evaluation sets (../shared/data beside the project)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def eval_data_dir() -> Path:
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
