"""Helpers for tests that start real servers on loopback."""

from __future__ import annotations

import os
import shutil
import socket
import sys
from pathlib import Path

import pytest


def free_port() -> int:
    """Return a loopback port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def venv_cli(name: str, install_hint: str) -> str:
    """Find a console script beside this interpreter (the venv's bin may not be on PATH).

    Missing: skip locally, fail in CI (where every tier must run).
    """
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if found is None:
        message = f"{name} is not installed ({install_hint})"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found
