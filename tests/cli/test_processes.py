"""A server started by the CLI stops when the CLI is told to stop (cli.processes)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

SERVER = """
import signal, sys, time, pathlib
pathlib.Path(sys.argv[1]).write_text("up")
signal.signal(signal.SIGTERM, lambda *_: (pathlib.Path(sys.argv[1]).write_text("stopped"), sys.exit(0)))
while True:
    time.sleep(0.1)
"""

PARENT = """
import sys
from pathlib import Path
from adaptive_rag.cli.processes import run_forwarding
sys.exit(run_forwarding([sys.executable, "-c", sys.argv[1], sys.argv[2]], Path("."), dict()))
"""


def test_sigterm_to_the_parent_alone_stops_the_server_and_waits_for_it(tmp_path: Path) -> None:
    marker = tmp_path / "state"
    parent = subprocess.Popen([sys.executable, "-c", PARENT, SERVER, str(marker)])
    deadline = time.monotonic() + 30
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marker.read_text() == "up"
    os.kill(parent.pid, signal.SIGTERM)  # what a supervisor sends: to this PID only
    assert parent.wait(timeout=30) == 0  # the server's own exit code, after it stopped
    assert marker.read_text() == "stopped"
