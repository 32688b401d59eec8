"""Derived folders are published whole: a versioned folder behind a symlink swapped atomically."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from adaptive_rag.knowledge.chroma import snapshot


def write(text: str):  # type: ignore[no-untyped-def]
    def fill(folder: Path) -> None:
        (folder / "part-1").write_text(text)
        (folder / "part-2").write_text(text)

    return fill


def read_both(folder: Path) -> str | None:
    try:
        one, two = (folder / "part-1").read_text(), (folder / "part-2").read_text()
    except OSError:
        return None
    return one if one == two else None


def versions(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if "@" in p.name and "lock" not in p.name)


def test_each_publish_swaps_the_link_and_keeps_only_the_version_it_replaced(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "index"
    for text in ("one", "two", "three"):
        snapshot.publish(folder, write(text))
    assert folder.is_symlink() and snapshot.read(folder, read_both) == "three"
    current = os.readlink(folder)
    assert len(versions(tmp_path)) == 2 and current in versions(tmp_path)
    assert not any(name.endswith((".tmp", ".link")) for name in versions(tmp_path))


def test_staging_of_a_dead_process_is_swept_and_of_a_live_one_kept(tmp_path: Path) -> None:
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (tmp_path / f"index@{dead}-abc123.tmp").mkdir()
    (tmp_path / f"index@{os.getppid()}-def456.tmp").mkdir()  # the parent runs: it is writing
    (tmp_path / "index.other").mkdir()  # another collection's folder is never touched
    snapshot.publish(tmp_path / "index", write("one"))
    left = versions(tmp_path)
    assert f"index@{dead}-abc123.tmp" not in left and f"index@{os.getppid()}-def456.tmp" in left
    assert (tmp_path / "index.other").is_dir()


def test_a_plain_folder_of_an_older_layout_is_replaced(tmp_path: Path) -> None:
    folder = tmp_path / "index"
    folder.mkdir()
    (folder / "part-1").write_text("old")
    assert snapshot.read(folder, read_both) is None  # half an index is no index
    snapshot.publish(folder, write("new"))
    assert folder.is_symlink() and snapshot.read(folder, read_both) == "new"
    assert len(versions(tmp_path)) == 1


def test_a_reader_whose_version_is_swept_away_reads_the_new_one(tmp_path: Path) -> None:
    folder = tmp_path / "index"
    snapshot.publish(folder, write("one"))
    calls: list[Path] = []

    def racing(version: Path) -> str | None:
        calls.append(version)
        if len(calls) == 1:  # two publishes land while the first read is under way
            snapshot.publish(folder, write("two"))
            snapshot.publish(folder, write("three"))
        return read_both(version)

    assert snapshot.read(folder, racing) == "three" and len(calls) == 2
    assert snapshot.read(tmp_path / "missing", read_both) is None


def test_a_failed_write_leaves_the_published_version_and_no_staging(tmp_path: Path) -> None:
    folder = tmp_path / "index"
    snapshot.publish(folder, write("one"))

    def broken(staging: Path) -> None:
        (staging / "part-1").write_text("half")
        raise OSError("disk full")

    try:
        snapshot.publish(folder, broken)
    except OSError:
        pass
    assert snapshot.read(folder, read_both) == "one"
    assert not any(name.endswith(".tmp") for name in versions(tmp_path))
