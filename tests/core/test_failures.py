"""Failures are typed by the part that failed and the exception's type, never by its text."""

from __future__ import annotations

import pytest
from adaptive_rag.core.failures import failed, kind_of
from adaptive_rag.knowledge.errors import KnowledgeBaseError
from adaptive_rag.providers.calls import StructuredOutputError
from adaptive_rag.providers.chat import ModelUnavailableError
from adaptive_rag.providers.local_weights import LocalModelError


@pytest.mark.parametrize(
    ("part", "exc", "kind"),
    [
        ("model", ModelUnavailableError("needs OPENAI_API_KEY"), "model_unavailable"),
        ("model", LocalModelError("llama-cpp-python is not installed"), "model_unavailable"),
        ("model", StructuredOutputError("no JSON"), "model_output"),
        ("model", ConnectionError("refused"), "model_unreachable"),
        ("model", TimeoutError("slow"), "model_unreachable"),
        ("model", RuntimeError("Connection refused"), "model_error"),  # words are not types
        ("retrieval", KnowledgeBaseError("no knowledge base 'x'"), "knowledge_base_unavailable"),
        ("retrieval", ConnectionError("store down"), "search_failed"),
        ("web", RuntimeError("401"), "web_unavailable"),
    ],
)
def test_kind_of(part: str, exc: BaseException, kind: str) -> None:
    assert kind_of(part, exc) == kind  # type: ignore[arg-type]


def test_failed_gives_a_typed_failure_and_a_redacted_note() -> None:
    update = failed(
        "classify", "model", RuntimeError("key sk-abcdefghijklmnopqrstuv"), "retrieving"
    )
    failure = update["failure"]
    assert failure["node"] == "classify" and failure["kind"] == "model_error"
    assert "sk-abcdefghijklmnopqrstuv" not in failure["message"] + update["note"]
    assert update["note"].startswith("classify: model failed (RuntimeError")
