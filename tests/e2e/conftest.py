"""Fixtures of the tests against llama.cpp's OpenAI-compatible server (test_openai_*.py)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from adaptive_rag.knowledge.chroma.store import ChromaStore
from adaptive_rag.providers import chat
from adaptive_rag.providers.local_weights import model_path
from fake_sources import SAMPLE
from hosted_model import ALIAS
from servers import llama_cpp_server


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """One llama.cpp server for the test run (its URL and PID), stopped by its PID at the end."""
    folder = tmp_path_factory.mktemp("llama")
    with llama_cpp_server(folder, model_path(False), ALIAS) as (url, proc):
        yield url, proc.pid


@pytest.fixture(scope="session")
def hosted_kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample knowledge base, ingested once for the run."""
    folder = tmp_path_factory.mktemp("hosted-kb")
    shutil.copytree(SAMPLE, folder / "docs")
    ChromaStore.open(str(folder / "kb"), "quillon", create=True).ingest(
        [str(folder / "docs")], False
    )
    return folder / "kb"


@pytest.fixture
def hosted(server: tuple[str, int], monkeypatch: pytest.MonkeyPatch) -> str:
    """Point the agent at the server through the settings a user sets; return its URL."""
    monkeypatch.setenv("OPENAI_BASE_URL", server[0])
    monkeypatch.setenv("ADAPTIVE_RAG_CHAT_MODEL", f"openai:{ALIAS}")
    monkeypatch.setattr(chat, "_MODELS", {})  # built once per spec: build this one afresh
    return server[0]
