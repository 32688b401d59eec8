"""The knowledge base in Chroma (on disk or a server), with BM25, graph and facets derived beside it."""
