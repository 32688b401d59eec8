"""experiments/cross_language_owned.py: the knowledge base's titles and headings, read from Chroma."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import chromadb


def test_headings_are_each_title_and_each_title_with_its_section(
    experiment: Callable[[str], ModuleType], tmp_path: Path
) -> None:
    client = chromadb.PersistentClient(str(tmp_path / "kb"))
    client.get_or_create_collection("handbook.parents")  # the parents' collection is skipped
    chunks = client.get_or_create_collection("handbook")
    chunks.add(
        ids=["1", "2", "3"],
        embeddings=[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
        documents=["a", "b", "c"],
        metadatas=[
            {"title": "Working Hours", "section": "Overtime"},
            {"title": "Working Hours"},
            {"title": "Returns", "section": "Refunds"},
        ],
    )
    heads = experiment("cross_language_owned").headings(tmp_path / "kb")
    assert heads == ["Returns", "Returns > Refunds", "Working Hours", "Working Hours > Overtime"]
