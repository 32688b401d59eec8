"""Metadata filters as every store takes them: equalities on a chunk's own metadata."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def matches(meta: Mapping[str, Any], where: Mapping[str, Any] | None) -> bool:
    """Return whether metadata equals every key of a simple equality filter."""
    return not where or all(meta.get(key) == value for key, value in where.items())
