"""What a cached answer holds for: the settings and the code it was written under.

The answer cache keys each answer by this scope, so an answer written under other settings, by
another release, or by changed prompts, nodes, rules, maps or weights is never returned.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import fields
from functools import cache
from importlib import metadata, resources

from adaptive_rag.schema.context import Context

NOT_SHAPING_ANSWERS = frozenset({"answer_cache"})
"""Context fields that never change what answer a question gets."""

_WRITERS = ("prompts", "core", "nodes", "graph", "knowledge", "providers", "schema")
"""The packages whose code shapes an answer (its prompts, nodes, rules, maps and weights)."""


@cache
def answer_writer() -> str:
    """Name the code an answer was written by: the version, and the source, maps and weights.

    A cached answer from another release, or from a changed node, rule, prompt or map, would
    return a stale text or confidence.
    """
    digest = hashlib.sha256(_version().encode())
    for package in _WRITERS:
        folder = resources.files(f"adaptive_rag.{package}")
        items = [*folder.iterdir()]
        items += [i for d in items if d.is_dir() and d.name == "weights" for i in d.iterdir()]
        for item in sorted(items, key=lambda i: str(i)):
            if item.name.endswith((".py", ".json")):
                digest.update(f"{package}/{item.name}".encode() + b"\0" + item.read_bytes())
    return digest.hexdigest()[:16]


def _version() -> str:
    """Return the installed package's version ("unknown" when run from an uninstalled tree)."""
    try:
        return metadata.version("adaptive-rag")
    except metadata.PackageNotFoundError:
        return "unknown"


def answer_scope(ctx: Context) -> str:
    """Name the settings and code an answer was written under: a cached answer holds for these."""
    shaping = {
        f.name: getattr(ctx, f.name) for f in fields(ctx) if f.name not in NOT_SHAPING_ANSWERS
    }
    shaping["__writer__"] = answer_writer()
    return hashlib.sha256(json.dumps(shaping, sort_keys=True).encode()).hexdigest()[:16]
