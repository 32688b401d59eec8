"""Metadata filters as every store takes them: equalities on a chunk's own metadata.

The retriever hands a store a filter in no store's dialect (`Equalities`, beside the `Reader`
who asks); each store translates both into its own: Chroma a `where` clause
(knowledge.chroma.filters), PostgreSQL a JSON containment (knowledge.postgres.searching).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Equalities = Mapping[str, Any]
"""A metadata filter: a chunk passes when its value under each key equals the one given."""


def matches(meta: Mapping[str, Any], where: Equalities | None) -> bool:
    """Return whether metadata equals every key of an equality filter."""
    return not where or all(meta.get(key) == value for key, value in where.items())
