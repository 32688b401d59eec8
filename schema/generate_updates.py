"""Write schema/updates.py from the State declaration in schema/state.py.

Run `python -m adaptive_rag.schema.generate_updates` after changing State; `--check` only says
whether the file is current (tests/graph/test_updates.py checks it too). Each key's update type
follows from its declaration: the type as declared, or, for a key with a reducer, what that
reducer takes (`UPDATE_OF`).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

STATE = Path(__file__).with_name("state.py")
UPDATES = Path(__file__).with_name("updates.py")
CLASSES = ("InputState", "OutputState", "State")
"""The classes State is made of, in the order their keys appear in it."""

_LOG = "{item} | Sequence[{item} | Reset] | Reset"
UPDATE_OF = {
    "add_messages": "Sequence[{item}]",
    "add_or_reset": "int | Reset",
    "extend_or_reset": _LOG,
    "merge_documents": _LOG,
    "merge_sub_searches": _LOG,
}
"""What each reducer takes as an update, {item} standing for the type of the list's items."""

_ALSO = {"Sequence": "collections.abc", "Reset": "adaptive_rag.schema.state"}
_BUILTIN = {"list", "dict", "str", "int", "float", "bool", "tuple"}
_LINE = 100
CLASS_DOC = (
    '"""A partial State update, typed as each key\'s reducer takes it (see schema.state)."""'
)

HEADER = '''"""What a node may return: every State key with the type its reducer accepts, \
all optional.

Generated from schema/state.py by `python -m adaptive_rag.schema.generate_updates`: do not edit
it by hand (tests/graph/test_updates.py fails when it drifts). A node typed `-> Update` is held to
real State keys by the type checker: a misspelt key is an error at `mypy` time, not an update
LangGraph silently drops.
"""

from __future__ import annotations
'''


def update_types(source: str) -> dict[str, str]:
    """Return each State key's update type, as source text, in State's key order."""
    tree = ast.parse(source)
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    types: dict[str, str] = {}
    for name in CLASSES:
        for item in classes[name].body:
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                types.setdefault(item.target.id, _update_type(item.target.id, item.annotation))
    return types


def _update_type(key: str, annotation: ast.expr) -> str:
    """Return the update type of one declaration: its reducer's, else the declared type."""
    if not (
        isinstance(annotation, ast.Subscript)
        and isinstance(annotation.value, ast.Name)
        and annotation.value.id == "Annotated"
        and isinstance(annotation.slice, ast.Tuple)
    ):
        return ast.unparse(annotation)
    declared, *extras = annotation.slice.elts
    last = extras[-1]
    if not isinstance(last, ast.Name):  # a marker such as Turn(...): no reducer
        return ast.unparse(declared)
    if last.id not in UPDATE_OF:
        raise SystemExit(f"{key}: say what the reducer {last.id} takes in UPDATE_OF")
    item = ""
    if isinstance(declared, ast.Subscript) and ast.unparse(declared.value) == "list":
        item = ast.unparse(declared.slice)
    return UPDATE_OF[last.id].format(item=item)


def _imported(source: str) -> dict[str, str]:
    """Map each name state.py imports or defines to the module it comes from."""
    found = dict(_ALSO)
    for node in ast.parse(source).body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module != "__future__":
            found.update({a.asname or a.name: node.module for a in node.names})
        elif isinstance(node, ast.ClassDef):
            found[node.name] = "adaptive_rag.schema.state"
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    found[target.id] = "adaptive_rag.schema.state"
    return found


def _import_line(module: str, names: list[str]) -> str:
    """Write one from-import as ruff formats it (names by type, then wrapped when too long)."""
    kind = {True: 0, False: 1}
    ordered = sorted(
        names, key=lambda n: (0 if n.isupper() and len(n) > 1 else kind[n[0].isupper()] + 1, n)
    )
    line = f"from {module} import {', '.join(ordered)}"
    if len(line) <= _LINE:
        return line
    inner = "".join(f"    {n},\n" for n in ordered)
    return f"from {module} import (\n{inner})"


def render(source: str | None = None) -> str:
    """Return the text of schema/updates.py for the State declared in `source` (state.py)."""
    source = STATE.read_text(encoding="utf-8") if source is None else source
    types = update_types(source)
    where = _imported(source)
    used: dict[str, set[str]] = {"typing_extensions": {"TypedDict"}}
    for text in types.values():
        for node in ast.walk(ast.parse(text, mode="eval")):
            if isinstance(node, ast.Name) and node.id not in _BUILTIN:
                if node.id not in where:
                    raise SystemExit(f"cannot tell where {node.id} comes from")
                used.setdefault(where[node.id], set()).add(node.id)
    stdlib = sorted(m for m in used if m.split(".")[0] in sys.stdlib_module_names)
    others = sorted((m for m in used if m not in stdlib), key=str.lower)
    blocks = [
        "\n".join(_import_line(m, sorted(used[m])) for m in group) for group in (stdlib, others)
    ]
    fields = "".join(f"    {key}: {text}\n" for key, text in types.items())
    return (
        f"{HEADER}\n"
        + "\n\n".join(b for b in blocks if b)
        + "\n\n\nclass Update(TypedDict, total=False):\n"
        + f"    {CLASS_DOC}\n\n"
        + fields
    )


def main(argv: list[str]) -> int:
    """Write updates.py (or, with --check, say whether it is current); return the exit code."""
    text = render()
    current = UPDATES.read_text(encoding="utf-8") if UPDATES.exists() else ""
    if "--check" in argv:
        if text != current:
            sys.stderr.write(
                f"{UPDATES} is out of date: run python -m adaptive_rag.schema.generate_updates\n"
            )
            return 1
        return 0
    if text != current:
        UPDATES.write_text(text, encoding="utf-8")
    sys.stdout.write(f"{UPDATES}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
