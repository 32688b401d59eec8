"""Locks that hold across processes: one writer per collection, one publisher per derived folder.

Both are `fcntl.flock` on a file in the data folder, so they serialise every process on this
machine that shares the folder, and the kernel releases them when a holder dies (kill -9 too).
They do not reach other machines: processes elsewhere that share a Chroma server rely on the
collection's revision token instead (knowledge.chroma.store).
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

POLL_SECONDS = 0.2
"""How often a waiting writer tries the lock again."""


class LockTimeout(TimeoutError):
    """Another process held the lock for longer than the caller would wait."""

    def __init__(self, path: Path, waited: float, holder: str) -> None:
        super().__init__(f"{path} is held by {holder}; waited {waited:.0f}s")
        self.path = path
        self.waited = waited
        self.holder = holder


def _open(path: Path) -> IO[str]:
    """Open (creating) a lock file; its content names the holder, for messages only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    return path.open("a+", encoding="utf-8")


def holder_of(path: Path) -> str:
    """Return who last took the lock at `path`, as the lock file says (for messages)."""
    try:
        pid = path.read_text(encoding="utf-8").strip()
    except OSError:
        pid = ""
    return f"process {pid}" if pid else "another process"


class WriteLock:
    """An exclusive lock across processes, re-entrant within the thread that holds it.

    A writer holds it for its whole write (an ingest, a delete, a revision bump); the methods it
    calls take it again without waiting. Threads of one process queue on it as processes do.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._mutex = threading.RLock()
        self._depth = 0
        self._file: IO[str] | None = None

    @contextmanager
    def held(self, wait: float, on_wait: Callable[[str], None]) -> Iterator[None]:
        """Hold the lock for the block; wait up to `wait` seconds, else raise LockTimeout.

        `on_wait` is told once, with who holds it, when the lock is not free at first.
        """
        started = time.monotonic()
        if not self._mutex.acquire(timeout=wait):
            raise LockTimeout(self.path, wait, "another thread of this process")
        try:
            if self._depth == 0:
                self._file = self._take(started + wait, started, on_wait)
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
                if self._depth == 0 and self._file is not None:
                    self._file.close()  # closing the descriptor releases the flock
                    self._file = None
        finally:
            self._mutex.release()

    def _take(self, deadline: float, started: float, on_wait: Callable[[str], None]) -> IO[str]:
        """Flock the file, polling until the deadline; record this process as the holder."""
        handle = _open(self.path)
        told = False
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                now = time.monotonic()
                if now >= deadline:
                    handle.close()
                    raise LockTimeout(self.path, now - started, holder_of(self.path)) from None
                if not told:
                    on_wait(holder_of(self.path))
                    told = True
                time.sleep(min(POLL_SECONDS, deadline - now))
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        return handle


@contextmanager
def exclusive(path: Path) -> Iterator[None]:
    """Hold a short lock across processes (blocking): for steps that take milliseconds."""
    with _open(path) as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
