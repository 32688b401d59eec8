"""The `adaptive-rag` command line."""
