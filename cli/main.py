"""The `adaptive-rag` command line: knowledge-base admin, ask/chat/demo, serve, eval."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from adaptive_rag.cli import ask, evaluate, judges, kb
from adaptive_rag.cli.common import (
    EXIT_BAD_CONFIG,
    EXIT_NETWORK,
    EXIT_NO_KB,
    EXIT_NO_MODEL,
    app,
    fail,
)

COMMAND_MODULES = (ask, evaluate, judges, kb)  # importing them registers their commands on `app`

__all__ = ["EXIT_BAD_CONFIG", "EXIT_NETWORK", "EXIT_NO_KB", "EXIT_NO_MODEL", "app", "main"]


@app.command()
def serve(
    port: Annotated[int, typer.Option(help="Port (0: pick a free one).")] = 2024,
) -> None:
    """Start `langgraph dev` for this project, with its outbound calls silenced.

    SIGTERM, SIGINT or SIGHUP stops the server too: the signal is passed on and waited for.
    """
    import os
    import socket

    from adaptive_rag.cli.processes import run_forwarding

    root = Path(__file__).resolve().parents[1]
    if not (root / "langgraph.json").exists():  # an installed package: serve it from a config
        root = served_config()
    import importlib.util

    # this interpreter's langgraph-cli, so the server imports the same adaptive_rag as this CLI
    if importlib.util.find_spec("langgraph_cli") is None:
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
    cmd = [sys.executable, "-m", "langgraph_cli", "dev", "--host", "127.0.0.1"]
    cmd += ["--port", str(port), "--no-browser", "--no-reload"]
    raise typer.Exit(run_forwarding(cmd, cwd=root, env=env))


def served_config() -> Path:
    """Write a langgraph.json that serves the installed package, in the user data dir."""
    import json

    from adaptive_rag.knowledge.data_folder import user_data_dir

    folder = user_data_dir() / "server"
    folder.mkdir(parents=True, exist_ok=True)
    config = {
        "dependencies": ["adaptive-rag"],  # installed already; the CLI needs one named
        "graphs": {
            "agent": "adaptive_rag.served:agent",
            "knowledge": "adaptive_rag.served:knowledge",
        },
        "http": {"app": "adaptive_rag.webapp:app"},
        "auth": {"path": "adaptive_rag.auth:auth", "disable_studio_auth": True},
    }
    (folder / "langgraph.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    return folder


def main() -> None:
    """Run the CLI (console script entry point)."""
    app()


if __name__ == "__main__":
    main()
