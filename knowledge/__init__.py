"""The knowledge base: loading, chunking, embeddings, two stores (Chroma, PostgreSQL), search."""
