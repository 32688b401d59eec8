"""Which store a knowledge base lives in: PostgreSQL when KNOWLEDGE_URI is set, else Chroma.

Chroma on disk is the default, with nothing to set up; CHROMA_HOST names a Chroma server;
KNOWLEDGE_URI (postgresql://...) a PostgreSQL database with pgvector, where every worker on every
machine shares the whole knowledge base and keeps nothing of its own.
"""

from __future__ import annotations

import os

from adaptive_rag.knowledge.errors import KnowledgeBaseError
from adaptive_rag.knowledge.interface import KnowledgeStore
from langchain_core.embeddings import Embeddings

SCHEMES = ("postgresql://", "postgres://")


def knowledge_uri() -> str:
    """Return KNOWLEDGE_URI ('' when unset); a value that is not a PostgreSQL URI is an error."""
    uri = os.environ.get("KNOWLEDGE_URI", "").strip()
    if uri and not uri.startswith(SCHEMES):
        raise KnowledgeBaseError(
            "KNOWLEDGE_URI must be a PostgreSQL URI (postgresql://user:password@host:5432/db);"
            " unset it to keep the knowledge base in Chroma"
        )
    if uri and os.environ.get("CHROMA_HOST", "").strip():
        raise KnowledgeBaseError(
            "both KNOWLEDGE_URI and CHROMA_HOST are set: the knowledge base lives in one store,"
            " unset the other"
        )
    return uri


def open_store(
    kb_path: str = "",
    collection: str = "",
    embedding_model: str = "auto",
    create: bool = False,
    embeddings: Embeddings | None = None,
) -> KnowledgeStore:
    """Open a collection in the configured store ('' is the default one; create=True makes it).

    `kb_path` is the Chroma folder ('' the user data folder); a PostgreSQL store ignores it.
    Raises KnowledgeBaseError when it cannot be opened.
    """
    uri = knowledge_uri()
    if uri:
        try:
            import psycopg  # noqa: F401
            import psycopg_pool  # noqa: F401
        except ImportError as exc:
            raise KnowledgeBaseError(
                'KNOWLEDGE_URI needs the PostgreSQL client: pip install "adaptive-rag[postgres]"'
            ) from exc
        from adaptive_rag.knowledge.postgres.store import PostgresStore

        return PostgresStore.open(uri, collection, embedding_model, create, embeddings)
    from adaptive_rag.knowledge.chroma.store import ChromaStore

    return ChromaStore.open(kb_path, collection, embedding_model, create, embeddings)
