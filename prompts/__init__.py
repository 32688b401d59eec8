"""Prompt text, one module per node, and the sources as every reading node shows them (`reading`)."""
