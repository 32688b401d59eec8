"""The package's modules one knowledge-base question runs through, from `intake` to `finalize`.

    python benchmarks/bench.py path
    python benchmarks/bench.py path --question "Kestrel K2 的外壳防护等级是多少？"

Ingests the bundled sample knowledge base into a collection in a temporary folder, answers a
warm-up question (so clients and lazy imports are in place, as for any question after a
worker's first), then traces one question's run with a profile hook on every thread: each module
of `adaptive_rag` in which a function ran is listed with its length in lines. Code that runs
only when a module is imported is not counted. The model is the one the environment configures
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
ONE_PER_FILE = ("adaptive_rag.nodes.", "adaptive_rag.prompts.")
"""Modules the style keeps one to a file: a node, and the prompt module of a node."""


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


def fewest_modules(lengths: dict[str, int]) -> int:
    """Return the fewest modules these lines could fill at LIMIT lines each, nodes apart.

    Each node and each node's prompt module stays a file of its own; every other line is packed
    without waste, so no real layout of the same code reaches fewer.
    """
    kept = [name for name in lengths if name.startswith(ONE_PER_FILE)]
    rest = sum(count for name, count in lengths.items() if name not in kept)
    return len(kept) + -(-rest // LIMIT)


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
        f"the fewest modules these lines fit at {LIMIT} lines each, one node and one prompt"
        f" module to a file: {fewest_modules(lengths)}",
    ]
    return lines
