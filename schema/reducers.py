"""Per-turn state: the reducers of counters and lists that add up within a turn, and `Turn`.

A State key declared `Annotated[list[str], Turn(RESET), extend_or_reset]` starts every turn at
RESET and then adds up through its reducer. LangGraph takes a key's reducer from the last
`Annotated` item when it is callable, so the `Turn` marker (never callable) may stand before it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

from adaptive_rag.core.documents import doc_key
from langchain_core.documents import Document

if TYPE_CHECKING:
    from adaptive_rag.schema.values import SubSearch

RESET: Final = "__reset__"
Reset = Literal["__reset__"]
"""Sentinel a node writes to a per-turn list or counter to clear it for a new question."""


@dataclass(frozen=True)
class Turn:
    """Marks a State key that starts every turn at `start` (intake writes it)."""

    start: Any
    """The key's value when a new question begins (RESET for a key with a reducer)."""


def _reset_split(right: object) -> tuple[bool, list[Any]]:
    """Split an update into (reset first?, items); RESET alone or leading a list resets."""
    if right == RESET:
        return True, []
    if isinstance(right, list) and right and right[0] == RESET:
        return True, list(right[1:])
    if right is None:
        return False, []
    return False, list(right) if isinstance(right, list) else [right]


def add_or_reset(left: int | None, right: int | str | None) -> int:
    """Add an increment to a counter, or reset it to zero on RESET."""
    if right == RESET:
        return 0
    return (left or 0) + int(right or 0)


def extend_or_reset(left: list[Any] | None, right: list[Any] | Any | None) -> list[Any]:
    """Append to a per-turn log; RESET (alone or first in the list) clears it first."""
    reset, items = _reset_split(right)
    return [*([] if reset else (left or [])), *items]


def merge_documents(left: list[Document] | None, right: list[Any] | str | None) -> list[Document]:
    """Add documents without duplicates; RESET first in the update replaces the list."""
    reset, items = _reset_split(right)
    merged = [] if reset else list(left or [])
    seen = {doc_key(doc) for doc in merged}
    for doc in items:
        if isinstance(doc, Document) and doc_key(doc) not in seen:
            seen.add(doc_key(doc))
            merged.append(doc)
    return merged


def merge_sub_searches(
    left: list[SubSearch] | None, right: list[Any] | str | None
) -> list[SubSearch]:
    """Collect the searches of parallel sub-questions in question order; RESET clears them."""
    reset, items = _reset_split(right)
    combined = [*([] if reset else (left or [])), *items]
    return sorted(combined, key=lambda item: item["index"])
