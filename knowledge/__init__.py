"""The knowledge base: loading, chunking, embeddings, the Chroma store, BM25 and hybrid search."""
