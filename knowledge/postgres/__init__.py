"""The knowledge base in PostgreSQL with pgvector: everything a search needs, in one database."""
