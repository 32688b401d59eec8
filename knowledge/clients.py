"""Where a knowledge base lives: the user data folder and the Chroma client (embedded or server)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def user_data_dir() -> Path:
    """Return the user data directory (ADAPTIVE_RAG_DATA overrides it)."""
    configured = os.environ.get("ADAPTIVE_RAG_DATA")
    if configured:
        return Path(configured).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("adaptive-rag"))


def chroma_client(kb_path: str) -> tuple[Any, str, Path]:
    """Return a Chroma client, a label for messages, and where the BM25 index lives."""
    import chromadb
    from chromadb.config import Settings

    settings = Settings(anonymized_telemetry=False)
    host = os.environ.get("CHROMA_HOST", "").strip()
    if host:
        port = int(os.environ.get("CHROMA_PORT") or 8000)
        from adaptive_rag.knowledge.chroma_http import http_client

        client = http_client(host, port, settings)
        return client, f"Chroma server {host}:{port}", user_data_dir() / "bm25" / f"{host}_{port}"
    path = Path(kb_path).expanduser() if kb_path else user_data_dir() / "kb"
    path.mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(path=str(path), settings=settings), str(path), path / "bm25"
