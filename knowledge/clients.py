"""Where a knowledge base lives (the user data folder, the Chroma client) and what Chroma stores."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from adaptive_rag.knowledge.locking import exclusive

OPEN_LOCK = "open.lock"
"""A lock file in an embedded store's folder: processes start their Chroma clients in turn."""


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
    with exclusive(path / OPEN_LOCK):  # two first opens would both create Chroma's tables
        client = chromadb.PersistentClient(path=str(path), settings=settings)
    return client, str(path), path / "bm25"


Flat = str | int | float | bool | list[str]


def chroma_metadata(meta: dict[str, Any]) -> dict[str, Flat]:
    """Keep metadata Chroma can store: scalars and lists of text, everything else as text."""
    flat: dict[str, Flat] = {}
    for key, value in meta.items():
        if value is None or value == []:
            continue
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            flat[key] = value
        else:
            flat[key] = value if isinstance(value, str | int | float | bool) else str(value)
    return flat
