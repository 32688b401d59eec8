"""Where a knowledge base lives (the user data folder, the Chroma client) and what Chroma stores."""

from __future__ import annotations

import os
import uuid
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


def machine_id(folder: Path) -> str:
    """Return this machine's id, made once and kept in `folder` (the user data folder).

    A Chroma server is shared by machines whose file paths mean nothing to each other: each
    chunk an ingest reads from a file records the id of the machine that read it.
    """
    path = folder / "machine-id"
    folder.mkdir(parents=True, exist_ok=True)
    try:
        with path.open("x", encoding="utf-8") as made:  # the first process to ask makes it
            made.write(uuid.uuid4().hex)
    except FileExistsError:
        pass
    return path.read_text(encoding="utf-8").strip()


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
        from adaptive_rag.knowledge.chroma_http import http_client

        client = http_client(host, port, settings)
        local = user_data_dir()
        label = f"Chroma server {host}:{port}"
        return client, label, local / "bm25" / f"{host}_{port}", machine_id(local)
    path = Path(kb_path).expanduser() if kb_path else user_data_dir() / "kb"
    path.mkdir(parents=True, exist_ok=True)
    with exclusive(path / OPEN_LOCK):  # two first opens would both create Chroma's tables
        client = chromadb.PersistentClient(path=str(path), settings=settings)
    return client, str(path), path / "bm25", ""


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
