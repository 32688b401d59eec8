"""The compiled graphs `langgraph.json` serves (built on first import of this module only)."""

from adaptive_rag.graph.builder import build_graph
from adaptive_rag.graph.knowledge import build_knowledge_graph

agent = build_graph()
"""The agent, with no checkpointer: the server brings its own."""
knowledge = build_knowledge_graph()
"""The knowledge base's documents: add, replace, delete and list them."""
