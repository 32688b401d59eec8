"""Run a server as a child process that stops when this one is told to stop."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path
from types import FrameType

FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
"""What a supervisor, a terminal or a closed session sends: passed on to the child's group."""

GRACE_SECONDS = 20.0
"""How long the child may take to stop after the signal before it is killed."""


def run_forwarding(command: list[str], cwd: Path, env: dict[str, str]) -> int:
    """Run `command` in its own process group until it exits; return its exit code.

    SIGTERM, SIGINT or SIGHUP sent to this process is sent on to the child's group, and this
    process waits for the child (killing the group after GRACE_SECONDS), so stopping the command
    never leaves its server running on the port.
    """
    child = subprocess.Popen(command, cwd=cwd, env=env, start_new_session=True)
    received: list[int] = []

    def forward(signum: int, _: FrameType | None) -> None:
        received.append(signum)
        try:
            os.killpg(child.pid, signum)
        except ProcessLookupError:
            pass

    previous = {sig: signal.signal(sig, forward) for sig in FORWARDED}
    deadline: float | None = None
    try:
        while True:
            try:
                code = child.wait(timeout=0.5)
                break
            except subprocess.TimeoutExpired:
                if received and deadline is None:
                    deadline = time.monotonic() + GRACE_SECONDS
                if deadline is not None and time.monotonic() > deadline:
                    os.killpg(child.pid, signal.SIGKILL)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 128 + received[0] if received and code < 0 else code
