"""A store-neutral filter and a reader, as a Chroma `where` clause."""

from __future__ import annotations

from typing import Any

from adaptive_rag.core.access import GROUPS, OWNER, PUBLIC, Reader
from adaptive_rag.knowledge.filters import Equalities


def reader_where(reader: Reader) -> dict[str, Any] | None:
    """Return what the reader may read (core.access) as a Chroma `where` (None: no filter)."""
    if reader.everyone:
        return None
    clauses: list[dict[str, Any]] = [{OWNER: PUBLIC}]
    if reader.user:
        clauses.append({OWNER: reader.user})
    clauses.extend({GROUPS: {"$contains": g}} for g in sorted(reader.named_groups()))
    return clauses[0] if len(clauses) == 1 else {"$or": clauses}


def chroma_where(where: Equalities | None, reader: Reader | None = None) -> dict[str, Any] | None:
    """Return equalities, and what the reader may read if given, as one Chroma `where` (or None)."""
    clauses = [{key: value} for key, value in (where or {}).items()]
    scope = reader_where(reader) if reader is not None else None
    if scope is not None:
        clauses.append(scope)
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}
