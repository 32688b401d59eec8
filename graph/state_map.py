"""Write docs/state.md: which State keys each node and edge reads and writes, read from the code.

Run `python -m adaptive_rag.graph.state_map` after changing a node or an edge; `--check` only
says whether the page is current (tests/graph/test_state_map.py checks it too). The map is
static: a node's module is read with `ast`, with its own helpers and the functions of the package
it hands the state or the update to (followed to any depth). A read is `state.get("key")` or
`state["key"]`; a write is a key of the node's update (`update["key"] = ...`,
`update.update({...})`, a dict typed `Update`, or the dict a node returns).
"""

from __future__ import annotations

import ast
import sys
from functools import cache
from pathlib import Path

from adaptive_rag.graph import builder
from adaptive_rag.schema.generate_updates import CLASSES, STATE
from adaptive_rag.schema.state import REMEMBERED
from adaptive_rag.schema.values import COUNTERS

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "state.md"
NODES = (*(node.__name__ for node in builder.NODES), "sub_question")
"""The agent graph's nodes (graph/builder.py), the branch on its own input last."""
_STATE_NAMES = {"state", "st", "current", "before"}
_KEY_LISTS: dict[str, tuple[str, ...]] = {"COUNTERS": COUNTERS, "REMEMBERED": REMEMBERED}
"""Tuples of State keys the code reads or writes in a loop ({k: state.get(k) for k in ...})."""
_COMPREHENSIONS = (ast.DictComp, ast.ListComp, ast.SetComp, ast.GeneratorExp)
_UPDATE_NAMES = {"update", "fresh", "out", "result"}


def state_keys() -> list[str]:
    """Return State's keys in declaration order (InputState, OutputState, then State's own)."""
    tree = ast.parse(STATE.read_text(encoding="utf-8"))
    keys: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name in CLASSES:
            for item in node.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    if item.target.id not in keys:
                        keys.append(item.target.id)
    return keys


@cache
def _module(name: str) -> ast.Module | None:
    """Parse a module of the package by its dotted name (None outside it, or not a file)."""
    parts = name.split(".")
    if parts[0] != "adaptive_rag":
        return None
    path = ROOT.joinpath(*parts[1:]).with_suffix(".py")
    return ast.parse(path.read_text(encoding="utf-8")) if path.exists() else None


def _imports(tree: ast.Module) -> dict[str, tuple[str, str]]:
    """Return each imported name of the package: local name -> (module, name there)."""
    found = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("adaptive_rag."):
            for alias in node.names:
                found[alias.asname or alias.name] = (str(node.module), alias.name)
    return found


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """Return the module's top-level functions by name."""
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


def _is(node: ast.expr, names: set[str]) -> bool:
    return isinstance(node, ast.Name) and node.id in names


def _string_keys(node: ast.Dict) -> list[str]:
    return [k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]


def _touches(body: ast.AST) -> tuple[set[str], set[str]]:
    """Return the keys a piece of code reads from the state and writes to an update."""
    reads: set[str] = set()
    writes: set[str] = set()
    for node in ast.walk(body):
        if isinstance(node, _COMPREHENSIONS) and _mentions(node, _STATE_NAMES):
            reads.update(_looped_keys(node))  # {name: state.get(name, 0) for name in COUNTERS}
        elif (  # state.get("key")
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and _is(node.func.value, _STATE_NAMES)
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            reads.add(str(node.args[0].value))
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            key = str(node.slice.value)
            if _is(node.value, _STATE_NAMES) and isinstance(node.ctx, ast.Load):
                reads.add(key)
            elif _is(node.value, _UPDATE_NAMES) and isinstance(node.ctx, ast.Store):
                writes.add(key)
        elif (  # update.update({...}) or update.update(key=...)
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("update", "setdefault")
            and _is(node.func.value, _UPDATE_NAMES)
        ):
            for arg in node.args:
                if isinstance(arg, ast.Dict):
                    writes.update(_string_keys(arg))
                elif isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    writes.add(arg.value)
            writes.update(k.arg for k in node.keywords if k.arg)
        elif (  # update: Update = {...}
            isinstance(node, ast.AnnAssign)
            and isinstance(node.annotation, ast.Name)
            and node.annotation.id == "Update"
            and isinstance(node.value, ast.Dict)
        ):
            writes.update(_string_keys(node.value))
    return reads, writes


def _mentions(node: ast.AST, names: set[str]) -> bool:
    """Whether a piece of code uses one of these names."""
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _looped_keys(node: ast.AST) -> set[str]:
    """Return the State keys of the known key tuples a comprehension loops over."""
    keys: set[str] = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.comprehension) and isinstance(inner.iter, ast.Name):
            keys.update(_KEY_LISTS.get(inner.iter.id, ()))
    return keys


def _returned(module: str, function: ast.FunctionDef) -> set[str]:
    """Return the keys of the dicts a node function returns, itself or through its helpers."""
    tree = _module(module)
    local = _functions(tree) if tree else {}
    keys: set[str] = set()
    for node in ast.walk(function):
        if not isinstance(node, ast.Return) or node.value is None:
            continue
        value = node.value
        if isinstance(value, ast.Dict):
            keys.update(_string_keys(value))
            for spread in (v for k, v in zip(value.keys, value.values, strict=True) if k is None):
                keys.update(_looped_keys(spread))  # **{name: ... for name in REMEMBERED}
        elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
            helper = local.get(value.func.id)
            if helper is not None and helper is not function:
                keys |= _returned(module, helper)
    return keys


def _passes_state(call: ast.Call) -> bool:
    """Whether a call hands on the state or the update."""
    args = [*call.args, *(k.value for k in call.keywords)]
    return any(_is(a, _STATE_NAMES | _UPDATE_NAMES) for a in args)


@cache
def _function_touches(module: str, name: str) -> tuple[frozenset[str], frozenset[str]]:
    """Return what a function reads and writes, with what the functions it hands state to do."""
    tree = _module(module)
    function = _functions(tree).get(name) if tree else None
    if tree is None or function is None:
        return frozenset(), frozenset()
    reads, writes = _touches(function)
    local, imported = _functions(tree), _imports(tree)
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            callee = node.func.id  # the module's own helpers, and others handed the state
            if callee in local:
                where: tuple[str, str] | None = (module, callee)
            else:
                where = imported.get(callee) if _passes_state(node) else None
            if where and where != (module, name):
                more_reads, more_writes = _function_touches(*where)
                reads |= more_reads
                writes |= more_writes
    return frozenset(reads), frozenset(writes)


def node_touches(name: str) -> tuple[set[str], set[str]]:
    """Return the State keys a node reads and writes."""
    module = f"adaptive_rag.nodes.{name}"
    reads, writes = (set(s) for s in _function_touches(module, name))
    tree = _module(module)
    function = _functions(tree).get(name) if tree else None
    if function is not None:
        writes |= _returned(module, function)
    writes.add("steps")  # graph/binding.bind records every run of a node
    return reads, writes


def edge_reads() -> dict[str, set[str]]:
    """Return the State keys each public edge function of graph/edges.py reads."""
    tree = _module("adaptive_rag.graph.edges")
    assert tree is not None
    return {
        name: set(_function_touches("adaptive_rag.graph.edges", name)[0])
        for name in _functions(tree)
        if not name.startswith("_")
    }


def _cell(keys: set[str], known: list[str]) -> str:
    """List keys in State's order; a branch's own input keys (SubQuestionState) after them."""
    ordered = [k for k in known if k in keys] + sorted(keys - set(known))
    return ", ".join(f"`{k}`" for k in ordered) or "—"


def render() -> str:
    """Return the page: nodes with their reads and writes, edges with their reads, then keys."""
    known = state_keys()
    lines = [
        "# The agent's state: who reads and writes each key",
        "",
        "Generated from the code by `python -m adaptive_rag.graph.state_map` (do not edit it by",
        "hand; tests/graph/test_state_map.py fails when it drifts). State is declared once, in",
        "[schema/state.py](../schema/state.py), with each key's meaning; a node returns an",
        "`Update` of the keys it writes (`graph/binding.bind` adds the node's name to `steps`).",
        "Reads include those made by the helpers a node hands its state to. Keys marked `Turn`",
        "there start afresh each turn (intake resets them);",
        "`sub_question` reads its own input, `SubQuestionState`, sent to it with `Send`.",
        "",
        "## Nodes, in the order a question meets them (the parallel branch last)",
        "",
        "| node | reads | writes |",
        "|---|---|---|",
    ]
    writers: dict[str, list[str]] = {k: [] for k in known}
    readers: dict[str, list[str]] = {k: [] for k in known}
    for name in NODES:
        reads, writes = node_touches(name)
        lines.append(f"| `{name}` | {_cell(reads, known)} | {_cell(writes, known)} |")
        for key in known:
            if key in writes:
                writers[key].append(name)
            if key in reads:
                readers[key].append(name)
    lines += ["", "## Edges (graph/edges.py): pure functions of the state", ""]
    lines += ["| edge | reads |", "|---|---|"]
    for name, reads in edge_reads().items():
        lines.append(f"| `{name}` | {_cell(reads, known)} |")
        for key in known:
            if key in reads:
                readers[key].append(name)
    lines += ["", "## Keys", "", "| key | written by | read by |", "|---|---|---|"]
    for key in known:
        written = ", ".join(writers[key]) or "the caller (input)"
        lines.append(f"| `{key}` | {written} | {', '.join(readers[key]) or '—'} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    """Write the page, or with --check say whether it is current."""
    page = render()
    if "--check" in argv:
        current = PAGE.exists() and PAGE.read_text(encoding="utf-8") == page
        sys.stdout.write("docs/state.md is current\n" if current else "docs/state.md drifted\n")
        return 0 if current else 1
    PAGE.write_text(page, encoding="utf-8")
    sys.stdout.write(f"wrote {PAGE}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
