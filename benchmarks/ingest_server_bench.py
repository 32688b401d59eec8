"""Documents a second through the server's `knowledge` graph against `adaptive-rag ingest`.

    .venv/bin/python benchmarks/bench.py ingest-server --documents 200

The same files (paragraphs of the shared SQuAD2 corpus, one `.txt` file each) are ingested twice
into fresh data folders, with the default embedded embeddings: by the CLI, one process from start
to end (its model load counted, as a user waits for it), and through `langgraph dev` serving the
project's `langgraph.json`, in requests of `--batch` documents sent with the SDK (the server's
start is not counted; its first request loads the model and is counted). Writes are let in with
ADAPTIVE_RAG_OPEN_WRITES (the server has no authentication here).
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))


def write_files(folder: Path, count: int) -> list[Path]:
    """Write `count` paragraphs of the shared SQuAD2 corpus as text files; return them."""
    from adaptive_rag.evaluation.data import eval_data_dir, read_jsonl

    rows = read_jsonl(eval_data_dir() / "squad2" / "corpus.jsonl")[:count]
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for row in rows:
        path = folder / f"{row['doc_id']}.txt"
        path.write_text(str(row["text"]), encoding="utf-8")
        paths.append(path)
    return paths


def by_cli(folder: Path, data: Path) -> tuple[float, str]:
    """Ingest the folder with the CLI in a fresh data folder; return seconds and its summary."""
    env = {**os.environ, "ADAPTIVE_RAG_DATA": str(data)}
    started = time.perf_counter()
    done = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "adaptive-rag"), "ingest", str(folder)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return time.perf_counter() - started, done.stdout.strip().splitlines()[-1]


def by_server(
    paths: list[Path], data: Path, work: Path, batch: int
) -> tuple[float, dict[str, int]]:
    """Send the files through the served `knowledge` graph; return seconds and the counts."""
    from langgraph_sdk import get_sync_client
    from servers import langgraph_dev

    env = {"ADAPTIVE_RAG_DATA": str(data), "ADAPTIVE_RAG_OPEN_WRITES": "true"}
    counts: dict[str, int] = {}
    with langgraph_dev(work, {}, env=env) as (url, _):
        client = get_sync_client(url=url)
        started = time.perf_counter()
        for start in range(0, len(paths), batch):
            documents: list[Any] = [
                {"name": p.name, "content_base64": base64.b64encode(p.read_bytes()).decode()}
                for p in paths[start : start + batch]
            ]
            out: Any = client.runs.wait(None, "knowledge", input={"documents": documents})
            for key, value in (out.get("counts") or {}).items():
                counts[key] = counts.get(key, 0) + int(value)
        seconds = time.perf_counter() - started
    return seconds, counts


def run(documents: int, batch: int) -> list[str]:
    """Run both and return the lines to print."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        paths = write_files(root / "files", documents)
        cli_seconds, summary = by_cli(root / "files", root / "cli-data")
        (root / "server").mkdir()
        server_seconds, counts = by_server(paths, root / "server-data", root / "server", batch)
    return [
        f"{documents} documents (SQuAD2 paragraphs), default embeddings",
        f"  CLI    {cli_seconds:6.1f} s  {documents / cli_seconds:5.2f} documents/s  ({summary})",
        f"  server {server_seconds:6.1f} s  {documents / server_seconds:5.2f} documents/s"
        f"  (requests of {batch}; {json.dumps(counts)})",
        f"  server / CLI time: {server_seconds / cli_seconds:.2f}",
    ]
