"""Node updates are typed: the Update schema names exactly the State's keys."""

from __future__ import annotations

from typing import get_type_hints

from adaptive_rag.schema.state import State
from adaptive_rag.schema.updates import Update


def test_update_has_every_state_key_and_no_other() -> None:
    assert set(get_type_hints(Update)) == set(get_type_hints(State, include_extras=True))


def test_no_node_returns_an_untyped_dict() -> None:
    from pathlib import Path

    import adaptive_rag.nodes as nodes

    folder = Path(nodes.__file__).parent
    untyped = [p.name for p in folder.glob("*.py") if "dict[str, Any]" in p.read_text()]
    assert untyped == []
