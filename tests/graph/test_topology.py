"""The graph's topology is snapshotted: a change of wiring is a deliberate change."""

from __future__ import annotations

import os
from pathlib import Path

import adaptive_rag

SNAPSHOT = Path(__file__).parent / "snapshots" / "graph.mmd"


def test_topology_matches_snapshot() -> None:
    drawn = adaptive_rag.agent.get_graph().draw_mermaid()
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        SNAPSHOT.parent.mkdir(exist_ok=True)
        SNAPSHOT.write_text(drawn)
    assert drawn == SNAPSHOT.read_text(), "run with UPDATE_SNAPSHOTS=1 if the change is intended"


def test_every_node_of_the_design_is_present() -> None:
    nodes = set(adaptive_rag.agent.get_graph().nodes)
    assert {
        "classify",
        "rewrite_with_history",
        "decompose",
        "sub_question",
        "hop",
        "retrieve",
        "grade_documents",
        "transform_query",
        "web_search",
        "generate",
        "self_check",
    } <= nodes
