"""The package's modules one knowledge-base question runs through, from `intake` to `finalize`.

    python benchmarks/bench.py path
    python benchmarks/bench.py path --question "Kestrel K2 的外壳防护等级是多少？"

Ingests the bundled sample knowledge base into a collection in a temporary folder, answers a
warm-up question (so clients and lazy imports are in place, as for any question after a
worker's first), then traces one question's run with a profile hook on every thread: each module
of `adaptive_rag` in which a function ran is listed with its length in lines. Code that runs
only when a module is imported is not counted.

The steps are the nodes (each with its prompt module) and the graph's edges; the faces are what
the steps' files import, a package used through its `__init__` (core.text, core.question,
core.grounding, core.judges, each store) counted once. The other modules the question ran are
behind the faces, reached only through them: a reader following the question may skip them.

The model is the one the environment configures (the embedded one when no API key is set), as
`adaptive-rag ask` would use.
"""

from __future__ import annotations

import ast
import sys
import tempfile
import threading
import uuid
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 300
"""Lines past which a module is reported as long."""
PACKAGES = (
    "adaptive_rag.core.text",
    "adaptive_rag.core.question",
    "adaptive_rag.core.grounding",
    "adaptive_rag.core.judges",
    "adaptive_rag.knowledge.chroma",
    "adaptive_rag.knowledge.postgres",
)
"""Packages used through the entry points their `__init__` exports: one face each."""
STEPS = ("adaptive_rag.nodes.", "adaptive_rag.graph.")
"""The question's steps: the nodes, and the graph's edges and binding."""


def module_name(filename: str) -> str | None:
    """Return the package's dotted name for a source file, or None outside the package."""
    path = Path(filename)
    if not path.is_absolute() or ROOT not in path.parents:
        return None
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[0] in {"tests", "benchmarks", ".venv", "scripts"}:
        return None
    return ".".join(("adaptive_rag", *(p for p in parts if p != "__init__")))


class Tracer:
    """Collect the package modules in which a function is called, on every thread."""

    def __init__(self) -> None:
        self.files: dict[str, str] = {}
        self._seen: set[str] = set()

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        """Note the module of each function called (the profile hook)."""
        if event != "call":
            return
        code = frame.f_code
        if code.co_filename in self._seen or code.co_name == "<module>":
            return
        self._seen.add(code.co_filename)
        name = module_name(code.co_filename)
        if name is not None:
            self.files[name] = code.co_filename

    def __enter__(self) -> Tracer:
        threading.setprofile(self)
        sys.setprofile(self)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.setprofile(None)
        threading.setprofile(None)


def trace(question: str, warm_up: str) -> tuple[dict[str, Any], dict[str, str]]:
    """Answer the warm-up question, then trace the question; return its output and modules."""
    from adaptive_rag import Context
    from adaptive_rag.cli.common import SAMPLE_KB
    from adaptive_rag.cli.kb import ingest
    from adaptive_rag.graph.builder import build_graph
    from langchain_core.runnables import RunnableConfig
    from langgraph.checkpoint.memory import InMemorySaver

    with tempfile.TemporaryDirectory() as folder:
        ingest([SAMPLE_KB], collection="question_path", kb_path=folder)
        ctx = Context(collection="question_path", kb_path=folder)
        graph = build_graph(InMemorySaver())

        def ask(text: str) -> dict[str, Any]:
            config: RunnableConfig = {"configurable": {"thread_id": str(uuid.uuid4())}}
            return dict(graph.invoke({"question": text}, config, context=replace(ctx)))

        ask(warm_up)
        with Tracer() as tracer:
            out = ask(question)
    return out, tracer.files


def face_of(module: str) -> str:
    """Return the face a module is read through: its package, its node, or itself."""
    for package in PACKAGES:
        if module == package or module.startswith(package + "."):
            return package
    prompt = module.removeprefix("adaptive_rag.prompts.")
    if prompt != module and (ROOT / "nodes" / f"{prompt}.py").exists():
        return f"adaptive_rag.nodes.{prompt}"  # a node's prompt module is read with its node
    return module


def is_step(module: str) -> bool:
    """Whether a module is one of the question's steps: a node, or the graph's edges."""
    return module.startswith(STEPS)


def imported_by(files: dict[str, str]) -> set[str]:
    """Return the package modules the steps' files import (by their `import` statements)."""
    found: set[str] = set()
    for name, file in files.items():
        if not is_step(name):
            continue
        for node in ast.walk(ast.parse(Path(file).read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
                found |= {f"{node.module}.{a.name}" for a in node.names}  # a module imported
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
    return {m for m in found if m.startswith("adaptive_rag.")}


def faces(files: dict[str, str]) -> tuple[dict[str, list[str]], list[str]]:
    """Return the faces the steps call, and the traced modules behind no face.

    Each face lists the traced modules of its package; the modules behind no face are reached
    only through a face (a reader following the question may skip them).
    """
    traced = sorted(files)
    called = {face_of(m) for m in imported_by(files)}
    grouped: dict[str, list[str]] = {}
    behind: list[str] = []
    for module in traced:
        face = face_of(module)
        if is_step(module) or is_step(face):
            continue
        if face in called:
            grouped.setdefault(face, []).append(module)
        else:
            behind.append(module)
    return grouped, behind


def report(out: dict[str, Any], files: dict[str, str]) -> list[str]:
    """Return the run's steps, then each module with its length, the longest first."""
    lengths = {name: len(Path(f).read_text().splitlines()) for name, f in files.items()}
    over = [n for n, count in lengths.items() if count > LIMIT]
    lines = [
        f"route: {out['route'].get('category')}; steps: {' → '.join(out['diagnostics']['steps'])}",
        f"answer: {out['answer'][:120]!r}",
        "",
        "| module | lines |",
        "|---|---|",
        *(f"| `{n}` | {c} |" for n, c in sorted(lengths.items(), key=lambda kv: (-kv[1], kv[0]))),
        "",
        f"{len(lengths)} modules, {sum(lengths.values())} lines;"
        f" {len(over)} over {LIMIT} lines{': ' + ', '.join(sorted(over)) if over else ''}",
        "",
    ]
    steps = sorted({face_of(m) for m in lengths if is_step(m) or is_step(face_of(m))})
    grouped, behind = faces(files)
    lines += [
        f"{len(steps)} steps: " + ", ".join(m.removeprefix("adaptive_rag.") for m in steps),
        "",
        "| face the steps call | its package's modules the question ran |",
        "|---|---|",
    ]
    for face, modules in grouped.items():
        inside = [m.removeprefix(face + ".") for m in modules if m.startswith(face + ".")]
        lines.append(f"| `{face.removeprefix('adaptive_rag.')}` | {', '.join(inside)} |")
    lines += [
        "",
        f"{len(grouped)} faces; behind them, reached only through a face (a reader may skip):"
        f" {', '.join(m.removeprefix('adaptive_rag.') for m in behind)}",
    ]
    return lines
