"""Prompt text, one module per node; constants only, importing nothing of ours."""
