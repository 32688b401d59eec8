"""Publish a derived folder so every process sees a whole version of it, never half of one.

A folder such as `bm25/<collection>` is a symlink to a version beside it,
`<collection>@<pid>-<hex>`. A writer fills a staging folder of its own (`<version>.tmp`: unique
per call, so processes and threads never share one), then, under a short lock, renames it to its
version name and swaps the symlink with os.replace, which is atomic: a reader follows the link
once and reads one whole version. Replacing a folder in place is not atomic on Linux (rename
cannot put a folder over a non-empty one), hence the link.

Each publish keeps the version it replaced, so a reader still inside it can finish, and removes
the rest: earlier versions, and staging folders whose process is gone. A reader that loses its
version anyway (two publishes during one read) follows the link again.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from adaptive_rag.knowledge.chroma.locking import exclusive

T = TypeVar("T")

READ_ATTEMPTS = 10
"""How often a reader follows the link again when the version it was reading went away."""
STAGING = ".tmp"
LINK = ".link"
_building: set[str] = set()
"""Staging folders this process is writing now (never swept, whatever their pid says)."""
_guard = threading.Lock()


def publish(folder: Path, write: Callable[[Path], None]) -> None:
    """Write a new version with `write(staging_folder)` and make `folder` point at it."""
    parent, name = folder.parent, folder.name
    parent.mkdir(parents=True, exist_ok=True)
    version = f"{name}@{os.getpid()}-{secrets.token_hex(6)}"
    staging = parent / f"{version}{STAGING}"
    with _guard:
        _building.add(staging.name)
    try:
        staging.mkdir()
        write(staging)
        with exclusive(parent / f"{name}@publish.lock"):
            previous = _target(folder)
            staging.rename(parent / version)
            _swap(folder, version)
            _sweep(folder, keep={version, previous})
    finally:
        with _guard:
            _building.discard(staging.name)
        shutil.rmtree(staging, ignore_errors=True)  # only left if `write` failed


def read(folder: Path, load: Callable[[Path], T | None]) -> T | None:
    """Return `load(version)` for the version `folder` points at, or None if there is none.

    `load` returns None for a folder it cannot read; when the link moved meanwhile, the new
    version is read instead.
    """
    for _ in range(READ_ATTEMPTS):
        try:
            version = folder.resolve(strict=True)
        except (OSError, RuntimeError):  # no index yet, or a dangling link
            return None
        found = load(version)
        if found is not None:
            return found
        try:
            if folder.resolve(strict=True) == version:
                return None  # the version is there and unreadable: damaged, rebuilt by the caller
        except (OSError, RuntimeError):
            return None
    return None


def _target(folder: Path) -> str:
    """Return the version name the link points at ('' for none or a plain folder)."""
    try:
        return os.readlink(folder)
    except OSError:
        return ""


def _swap(folder: Path, version: str) -> None:
    """Point `folder` at `version` atomically (a plain folder left by an older layout retires)."""
    link = folder.parent / f"{version}{LINK}"
    link.symlink_to(version)
    if folder.is_dir() and not folder.is_symlink():
        retired = folder.parent / f"{folder.name}@{os.getpid()}-{secrets.token_hex(6)}"
        folder.rename(retired)  # swept below: no version is current there
    os.replace(link, folder)


def _sweep(folder: Path, keep: set[str]) -> None:
    """Remove versions and staging folders no reader can reach and no live writer fills."""
    pattern = re.compile(rf"{re.escape(folder.name)}@(\d+)-[0-9a-f]+(\{STAGING}|\{LINK})?")
    with _guard:
        building = set(_building)
    for entry in folder.parent.iterdir():
        found = pattern.fullmatch(entry.name)
        if found is None or entry.name in keep or entry.name in building:
            continue
        if found.group(2) == STAGING and _alive(int(found.group(1))):
            continue  # another process is still writing it
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    """Whether a process with this id runs on this machine (ours counts: see _building)."""
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
