"""Where a Chroma knowledge base lives: an embedded client on disk, or a Chroma server's."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from adaptive_rag.knowledge.chroma.locking import exclusive
from adaptive_rag.knowledge.data_folder import machine_id, user_data_dir

OPEN_LOCK = "open.lock"
"""A lock file in an embedded store's folder: processes start their Chroma clients in turn."""


def chroma_client(kb_path: str) -> tuple[Any, str, Path, str]:
    """Return a Chroma client, a label for messages, where the BM25 index lives, and a machine.

    The machine is this machine's id with a Chroma server ('' on disk, where every path is
    this machine's).
    """
    import chromadb
    from chromadb.config import Settings

    settings = Settings(anonymized_telemetry=False)
    host = os.environ.get("CHROMA_HOST", "").strip()
    if host:
        port = int(os.environ.get("CHROMA_PORT") or 8000)
        from adaptive_rag.knowledge.chroma.http import http_client

        client = http_client(host, port, settings)
        local = user_data_dir()
        label = f"Chroma server {host}:{port}"
        return client, label, local / "bm25" / f"{host}_{port}", machine_id(local)
    path = Path(kb_path).expanduser() if kb_path else user_data_dir() / "kb"
    path.mkdir(parents=True, exist_ok=True)
    with exclusive(path / OPEN_LOCK):  # two first opens would both create Chroma's tables
        client = chromadb.PersistentClient(path=str(path), settings=settings)
    return client, str(path), path / "bm25", ""
