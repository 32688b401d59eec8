"""Locate and read the shared evaluation sets (../shared/data beside the project)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FITTED_DIR = ROOT / "benchmarks" / "fitting"
"""What each shipped model was fitted on and how it measured (its rows, held-out figures): kept
in the clone (benchmarks/fitting/), not in the wheel; the model itself ships in
core/judges/weights. An installed package has no such folder: `--write` then keeps the record
beside the fit only."""


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
    """Write a corpus as ingestible JSONL: text, doc_id, title and the documents' other fields.

    The other fields (a news set's publisher, author and date) are ingested as a user's own
    records are: the knowledge base reads them as the documents' facets (knowledge.facets).
    """
    with path.open("w", encoding="utf-8") as out:
        for doc in corpus:
            record = {
                "text": doc["text"],
                "doc_id": doc["doc_id"],
                "title": doc.get("title") or doc["doc_id"],
            }
            record.update(
                (key, value)
                for key, value in doc.items()
                if key not in record and isinstance(value, str | int | float | bool)
            )
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path
