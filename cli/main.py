"""The `adaptive-rag` command line: knowledge-base admin, ask/chat/demo, serve, bench, eval."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from adaptive_rag.cli import ask, bench, evaluate, kb  # noqa: F401 - they register their commands
from adaptive_rag.cli.common import (
    EXIT_BAD_CONFIG,
    EXIT_NETWORK,
    EXIT_NO_KB,
    EXIT_NO_MODEL,
    app,
    fail,
)

__all__ = ["EXIT_BAD_CONFIG", "EXIT_NETWORK", "EXIT_NO_KB", "EXIT_NO_MODEL", "app", "main"]


@app.command()
def serve(
    port: Annotated[int, typer.Option(help="Port (0: pick a free one).")] = 2024,
) -> None:
    """Start `langgraph dev` for this project, with its outbound calls silenced."""
    import os  # noqa: PLC0415
    import shutil  # noqa: PLC0415
    import socket  # noqa: PLC0415
    import subprocess  # noqa: PLC0415

    root = Path(__file__).resolve().parents[1]
    if not (root / "langgraph.json").exists():
        raise fail(f"langgraph.json not found in {root}; run from a clone of the project", 1)
    beside = Path(sys.executable).parent / "langgraph"
    cli = str(beside) if beside.exists() else shutil.which("langgraph")
    if cli is None:
        raise fail('langgraph-cli is not installed: pip install "adaptive-rag[dev]"', 1)
    if port == 0:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = int(sock.getsockname()[1])
    env = {
        **os.environ,
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGGRAPH_NO_VERSION_CHECK": "1",
        "LANGSMITH_TRACING": "false",
    }
    typer.echo(
        f"API: http://127.0.0.1:{port}  (Studio: https://smith.langchain.com/studio/?baseUrl=http://127.0.0.1:{port})"
    )
    cmd = [cli, "dev", "--host", "127.0.0.1", "--port", str(port), "--no-browser", "--no-reload"]
    raise typer.Exit(subprocess.call(cmd, cwd=root, env=env))


def main() -> None:
    """Run the CLI (console script entry point)."""
    app()


if __name__ == "__main__":
    main()
