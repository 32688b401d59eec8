"""The package's modules one knowledge-base question runs through, from `intake` to `finalize`.

    python benchmarks/bench.py path
    python benchmarks/bench.py path --question "Kestrel K2 的外壳防护等级是多少？"

Ingests the bundled sample knowledge base into a collection in a temporary folder, answers a
warm-up question (so clients and lazy imports are in place, as for any question after a
worker's first), then traces one question's run with a profile hook on every thread: each module
of `adaptive_rag` in which a function ran is listed with its length in lines. Code that runs
only when a module is imported is not counted.

The modules are then grouped into faces, what a reader follows the question through: a node
with its prompt module, a package reached through its `__init__` (core.text, core.question,
core.grounding, core.judges, each store), or a module of its own. A package's other modules
are its internals, which a reader may skip. The model is the one the environment configures
(the embedded one when no API key is set), as `adaptive-rag ask` would use.
"""

from __future__ import annotations

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


def faces(modules: list[str]) -> dict[str, list[str]]:
    """Group modules by face; each face lists the modules behind it, itself first if traced."""
    grouped: dict[str, list[str]] = {}
    for module in sorted(modules):
        grouped.setdefault(face_of(module), []).append(module)
    return grouped


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
        "| face | modules behind it (a reader may skip all but the face) |",
        "|---|---|",
    ]
    grouped = faces(list(lengths))
    for face, behind in grouped.items():
        short = [
            m.removeprefix(face + ".")
            if m.startswith(face + ".")
            else m.removeprefix("adaptive_rag.")
            for m in behind
            if m != face
        ]
        lines.append(f"| `{face.removeprefix('adaptive_rag.')}` | {', '.join(short)} |")
    lines += ["", f"{len(grouped)} faces"]
    return lines
