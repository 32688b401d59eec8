"""State is declared once: Update and the per-turn reset follow from the declaration."""

from __future__ import annotations

from typing import Any, get_type_hints

import pytest
from adaptive_rag.schema import generate_updates
from adaptive_rag.schema.state import RESET, State, fresh_turn
from adaptive_rag.schema.updates import Update
from langgraph.graph import StateGraph
from langgraph.graph.message import add_messages

CARRIED_OR_WRITTEN = {
    "messages",  # the conversation carries over
    "question",  # consumed by intake
    "query",  # intake writes the question's forms
    "standalone",
    "search_query",
    "language",
    "confidence",  # finalize writes the output
    "verified",
    "answerable",
    "diagnostics",
}
"""State keys with no per-turn start value: each either carries over or is written every turn."""


def test_update_is_generated_from_state_and_current() -> None:
    assert generate_updates.render() == generate_updates.UPDATES.read_text(encoding="utf-8"), (
        "schema/updates.py drifted from State: run python -m adaptive_rag.schema.generate_updates"
    )
    assert generate_updates.main(["--check"]) == 0


def test_update_has_every_state_key_and_no_other() -> None:
    assert set(get_type_hints(Update)) == set(get_type_hints(State, include_extras=True))


def test_a_changed_declaration_changes_the_update() -> None:
    source = generate_updates.STATE.read_text(encoding="utf-8")
    changed = source.replace("    next_query: Annotated[str,", "    next_query: Annotated[int,")
    assert changed != source
    assert "    next_query: int\n" in generate_updates.render(changed)
    added = source.replace(
        '    """The working state of one question',
        '    extra: Annotated[list[Hop], Turn(RESET), extend_or_reset]\n    """The working state',
    )
    assert "    extra: Hop | Sequence[Hop | Reset] | Reset\n" in generate_updates.render(added)


def test_a_reducer_the_generator_does_not_know_is_named() -> None:
    source = generate_updates.STATE.read_text(encoding="utf-8").replace(
        "merge_sub_searches]", "sorted_merge]"
    )
    with pytest.raises(SystemExit, match="sorted_merge"):
        generate_updates.render(source)


def test_every_key_starts_each_turn_at_its_declared_value_or_is_named_as_carried() -> None:
    fresh = fresh_turn()
    keys = set(get_type_hints(State, include_extras=True))
    assert set(fresh) == keys - CARRIED_OR_WRITTEN
    assert fresh["documents"] == RESET and fresh["best_score"] == -1 and fresh["mode"] == "none"
    fresh["sources"].append("changed")  # each turn gets its own copies
    assert fresh_turn()["sources"] == []


def test_the_turn_marker_leaves_langgraph_the_reducer() -> None:
    channels: dict[str, Any] = StateGraph(State).channels
    assert channels["steps"].operator.__name__ == "extend_or_reset"
    assert channels["messages"].operator is add_messages
    assert type(channels["answer"]).__name__ == "LastValue"


def test_no_node_returns_an_untyped_dict() -> None:
    from pathlib import Path

    import adaptive_rag.nodes as nodes

    folder = Path(nodes.__file__).parent
    untyped = [p.name for p in folder.glob("*.py") if "dict[str, Any]" in p.read_text()]
    assert untyped == []
