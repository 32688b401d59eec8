"""The knowledge base in Chroma (on disk or a server), its BM25, graph and facets derived beside."""
