"""Reducers: per-turn fields reset at intake, lists merge without duplicates."""

from __future__ import annotations

from adaptive_rag.core.text import doc_key
from adaptive_rag.schema.state import (
    RESET,
    add_or_reset,
    extend_or_reset,
    merge_documents,
    merge_sub_searches,
)
from langchain_core.documents import Document


def test_counters_add_increments_and_reset() -> None:
    assert add_or_reset(None, 1) == 1
    assert add_or_reset(3, 1) == 4
    assert add_or_reset(3, RESET) == 0
    assert add_or_reset(3, None) == 3


def test_logs_extend_and_reset_then_extend() -> None:
    assert extend_or_reset(["a"], "b") == ["a", "b"]
    assert extend_or_reset(["a"], ["b", "c"]) == ["a", "b", "c"]
    assert extend_or_reset(["a"], RESET) == []
    assert extend_or_reset(["a"], [RESET, "intake"]) == ["intake"]


def test_documents_deduplicate_by_id_and_replace_on_reset() -> None:
    a = Document(page_content="A", metadata={"id": "1"})
    a_again = Document(page_content="A (same chunk)", metadata={"id": "1"})
    web_a = Document(page_content="A", metadata={"id": "1", "origin": "web"})
    b = Document(page_content="B")
    merged = merge_documents([a], [a_again, web_a, b, b])
    assert [doc_key(d) for d in merged] == ["kb:1", "web:1", "kb::B"]
    assert merge_documents(merged, [RESET, b]) == [b]
    assert merge_documents(merged, RESET) == []


def test_sub_searches_stay_in_question_order_whatever_finishes_first() -> None:
    second = {"index": 1, "question": "b", "answer": "B", "source_keys": []}
    first = {"index": 0, "question": "a", "answer": "A", "source_keys": []}
    merged = merge_sub_searches([second], [first])  # type: ignore[list-item]
    assert [s["index"] for s in merged] == [0, 1]
    assert merge_sub_searches(merged, RESET) == []
