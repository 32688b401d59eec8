"""The user data folder (ADAPTIVE_RAG_DATA), and this machine's id kept in it."""

from __future__ import annotations

import os
import uuid
from pathlib import Path


def user_data_dir() -> Path:
    """Return the user data directory (ADAPTIVE_RAG_DATA overrides it)."""
    configured = os.environ.get("ADAPTIVE_RAG_DATA")
    if configured:
        return Path(configured).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("adaptive-rag"))


def machine_id(folder: Path) -> str:
    """Return this machine's id, made once and kept in `folder` (the user data folder).

    A store shared by machines (a Chroma server, a PostgreSQL database) holds file paths that mean
    nothing to each other: each chunk an ingest reads from a file records the id of the machine
    that read it.
    """
    path = folder / "machine-id"
    folder.mkdir(parents=True, exist_ok=True)
    try:
        with path.open("x", encoding="utf-8") as made:  # the first process to ask makes it
            made.write(uuid.uuid4().hex)
    except FileExistsError:
        pass
    return path.read_text(encoding="utf-8").strip()
