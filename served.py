"""The compiled agent that `langgraph.json` serves (built on first import of this module only)."""

from adaptive_rag.graph.builder import build_graph

agent = build_graph()
"""The compiled graph with no checkpointer: the server brings its own."""
