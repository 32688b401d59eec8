"""docs/state.md maps which node and edge reads and writes each State key, from the code."""

from __future__ import annotations

import adaptive_rag
from adaptive_rag.graph import state_map
from adaptive_rag.schema.state import SubQuestionState


def test_the_page_is_current() -> None:
    assert state_map.render() == state_map.PAGE.read_text(encoding="utf-8"), (
        "docs/state.md drifted from the nodes: run python -m adaptive_rag.graph.state_map"
    )


def test_it_maps_every_node_of_the_graph() -> None:
    drawn = set(adaptive_rag.agent.get_graph().nodes) - {"__start__", "__end__"}
    assert set(state_map.NODES) == drawn


def test_reads_and_writes_are_found_where_the_code_has_them() -> None:
    reads, writes = state_map.node_touches("intake")
    assert {"rules", "web_available", "standalone"} <= writes  # its own helper's update
    reads, writes = state_map.node_touches("grade_documents")
    assert "route" in reads and {"relevance", "read_whole", "judgments"} <= writes  # judged()
    _, writes = state_map.node_touches("transform_query")
    assert "rewrites" in writes
    reads, _ = state_map.node_touches("finalize")
    assert {"model_calls", "tokens_in"} <= reads  # the counters, read in a loop
    reads, _ = state_map.node_touches("remember")
    assert {"answer", "confidence"} <= reads  # the remembered keys, read in a loop
    edges = state_map.edge_reads()
    assert {"relevance", "read_whole", "documents"} <= edges["after_grading"]
    assert "rewrites" in edges["can_rewrite"]  # through the settings helper it calls


def test_every_key_is_a_state_key() -> None:
    known = set(state_map.state_keys()) | set(SubQuestionState.__annotations__)
    for name in state_map.NODES:
        reads, writes = state_map.node_touches(name)
        assert reads | writes <= known, name
