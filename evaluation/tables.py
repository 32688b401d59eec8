"""Markdown tables for benchmark and evaluation output."""

from __future__ import annotations

from typing import Any


def table(rows: list[dict[str, Any]], keys: list[str] | None = None) -> str:
    """Render rows as a Markdown table (columns: the given keys, or the first row's)."""
    if not rows:
        return "(no rows)"
    keys = keys or list(rows[0])
    lines = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    lines += ["| " + " | ".join(str(r.get(k, "")) for k in keys) + " |" for r in rows]
    return "\n".join(lines)
