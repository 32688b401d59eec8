"""Ingestion of bad files, duplicates, huge files and a crash mid-ingest (kill -9): nothing lost."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from adaptive_rag.knowledge.chroma.store import ChromaStore
from adaptive_rag.knowledge.data_folder import machine_id
from adaptive_rag.knowledge.opening import open_store
from adaptive_rag.knowledge.retriever import HybridRetriever
from fake_sources import HashEmbeddings

TESTS = Path(__file__).resolve().parents[1]


def open_kb(path: Path, collection: str = "faults") -> Any:
    """Open the collection in the test's store (PostgreSQL when KNOWLEDGE_URI is set)."""
    return open_store(str(path), collection, "test:hash", create=True, embeddings=HashEmbeddings())


def write_docs(folder: Path, files: int, sections: int = 6) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for f in range(files):
        body = "\n\n".join(
            f"## Part {s}\n\n"
            + " ".join(f"Document {f} part {s} sentence {w} about item{f}x{s}." for w in range(30))
            for s in range(sections)
        )
        (folder / f"doc{f:03}.md").write_text(f"# Document {f}\n\n{body}\n")
    return folder


def entity_graph(kb: ChromaStore) -> dict[str, list[str]]:
    """Return each chunk's entities in the graph the keyword index derives, by chunk id."""
    index = kb.derived_index()
    return {cid: sorted(index.graph.entities_of(i)) for i, cid in enumerate(index.ids)}


def chunks_by_source(kb: ChromaStore) -> Counter[str]:
    return Counter({e["source"]: e["chunks"] for e in kb.sources()})


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADAPTIVE_RAG_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("CHROMA_HOST", raising=False)


CHILD = textwrap.dedent(
    """
    import sys, time
    sys.path.insert(0, {tests!r})
    import adaptive_rag.knowledge.chroma.store as store
    from fake_sources import HashEmbeddings
    import adaptive_rag.knowledge.ingest as ingest
    ingest.WRITE_GROUP_CHUNKS = 8
    kb = store.ChromaStore.open({kb!r}, "faults", "test:hash", create=True,
                                  embeddings=HashEmbeddings())
    kb._client.get_max_batch_size = lambda: 4  # two chunks per write: a kill lands mid-file
    collection = type(kb._chunks)
    upsert = collection.upsert
    def slow(self, **kw):
        upsert(self, **kw)
        print("wrote", len(kw["ids"]), flush=True)
        time.sleep(0.02)
    collection.upsert = slow
    kb.ingest([{docs!r}], progress=False)
    print("done", flush=True)
    """
)


@pytest.mark.parametrize("after_writes", [3, 25])
def test_kill_9_mid_ingest_then_rerun_completes_with_nothing_lost_or_duplicated(
    tmp_path: Path, after_writes: int, tally: Any
) -> None:
    docs = write_docs(tmp_path / "docs", files=12)
    reference = open_kb(tmp_path / "reference")
    reference.ingest([str(docs)], progress=False)
    expected = chunks_by_source(reference)
    kb_dir = tmp_path / "kb"
    code = CHILD.format(tests=str(TESTS), kb=str(kb_dir), docs=str(docs))
    child = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    writes = 0
    deadline = time.monotonic() + 120
    while writes < after_writes and time.monotonic() < deadline:
        line = child.stdout.readline()
        if not line:
            break
        writes += line.startswith("wrote")
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=30)
    assert writes >= after_writes, child.stderr.read() if child.stderr else ""
    kb = open_kb(kb_dir)
    partial = kb.count()
    assert 0 < partial < reference.count(), "the kill did not land mid-ingest"
    report = kb.ingest([str(docs)], progress=False)  # re-run the same command
    assert report.failed == [] and report.duplicates == []
    assert chunks_by_source(kb) == expected  # every file complete, none twice
    assert kb.count() == reference.count()
    ids = kb._chunks.get(include=[])["ids"]
    assert len(ids) == len(set(ids)) == reference.count()
    assert entity_graph(kb) == entity_graph(reference)  # the graph lives with the chunks
    last = HybridRetriever(kb=kb, k=1, mode="keyword").invoke("item11x5 Document 11 part 5")
    assert last and "doc011.md" in last[0].metadata["source"]  # BM25 saw the late writes
    again = kb.ingest([str(docs)], progress=False)
    assert len(again.unchanged) == 12 and again.chunks_added == 0
    tally(faults=1, lost=reference.count() - kb.count())


def test_bad_empty_huge_unreadable_and_duplicate_files(
    store: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tally: Any
) -> None:
    folder = tmp_path / "mixed"
    write_docs(folder, files=2)
    (folder / "empty.md").write_text("")
    (folder / "corrupt.pdf").write_bytes(b"%PDF-1.7\n" + os.urandom(4096))
    (folder / "truncated.pdf").write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog")
    (folder / "secret.md").write_text("# Secret\n\nNobody may read this.\n")
    (folder / "copy.md").write_bytes((folder / "doc000.md").read_bytes())  # same content
    huge = folder / "huge.md"
    huge.write_text(
        "\n\n".join(f"## H{i}\n\n" + f"Paragraph {i} of the huge file. " * 60 for i in range(1500))
    )  # about 3 MB
    unreadable = (folder / "secret.md").resolve()
    real_read = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self == unreadable:  # tests run as root, so chmod 000 would not stop a read
            raise PermissionError(13, "Permission denied", str(self))
        return real_read(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    kb = open_kb(tmp_path / "kb")
    started = time.perf_counter()
    report = kb.ingest([str(folder), str(folder / "doc001.md")], progress=False)  # doc001 twice
    seconds = time.perf_counter() - started
    failed = "\n".join(report.failed)
    for name, reason in [
        ("empty.md", "no text"),
        ("corrupt.pdf", "corrupt.pdf"),
        ("truncated.pdf", "truncated.pdf"),
        ("secret.md", "Permission denied"),
    ]:
        assert name in failed and reason in failed, (name, failed)
    assert [d.split(" ")[0] for d in report.duplicates] == [str((folder / "doc000.md").resolve())]
    added = sorted(Path(a).name for a in report.added)
    assert added == ["copy.md", "doc001.md", "huge.md"]  # copy.md sorts before doc000.md
    by_source = chunks_by_source(kb)
    assert by_source[str(huge.resolve())] > 1500 and sum(by_source.values()) == kb.count()
    assert seconds < 600
    tally(faults=6)


def test_a_moved_file_replaces_its_copy_at_the_old_path(tmp_path: Path, store: str) -> None:
    docs = write_docs(tmp_path / "docs", files=2)
    kb = open_kb(tmp_path / "kb")
    kb.ingest([str(docs)], progress=False)
    before = chunks_by_source(kb)
    moved = tmp_path / "moved"
    docs.rename(moved)
    report = kb.ingest([str(moved / "doc000.md")], progress=False)
    assert report.duplicates == [] and [Path(a).name for a in report.added] == ["doc000.md"]
    old, new = str((docs / "doc000.md").resolve()), str((moved / "doc000.md").resolve())
    assert report.moved == [f"{old} -> {new}"]
    after = chunks_by_source(kb)
    assert old not in after and after[new] == before[old]  # no second copy left behind
    assert after[str((docs / "doc001.md").resolve())] == before[str((docs / "doc001.md").resolve())]
    assert {e["source"] for e in kb.sources()} == set(after)
    again = kb.ingest([str(moved / "doc000.md")], progress=False)
    assert again.unchanged == [new] and again.moved == []


def test_a_path_another_machine_ingested_is_never_judged_moved_here(tmp_path: Path) -> None:
    # two machines on one Chroma server: the first machine's path does not exist on the second
    docs = write_docs(tmp_path / "docs", files=1)
    kb = open_kb(tmp_path / "kb")
    kb._machine = "machine-a"  # as clients.machine_id gives it with CHROMA_HOST set
    kb.ingest([str(docs)], progress=False)
    before = chunks_by_source(kb)
    elsewhere = tmp_path / "elsewhere"
    docs.rename(elsewhere)  # as the second machine sees it: the first one's path is not here
    kb._machine = "machine-b"
    report = kb.ingest([str(elsewhere / "doc000.md")], progress=False)
    old = str((docs / "doc000.md").resolve())
    assert report.moved == [] and report.added == []
    assert report.duplicates == [f"{(elsewhere / 'doc000.md').resolve()} (same content as {old})"]
    assert chunks_by_source(kb) == before  # the first machine's copy is kept, not relabelled
    kb._machine = "machine-a"
    again = kb.ingest([str(elsewhere / "doc000.md")], progress=False)  # its own machine: moved
    assert again.moved == [f"{old} -> {(elsewhere / 'doc000.md').resolve()}"]


def test_a_machine_keeps_one_id(tmp_path: Path) -> None:
    first = machine_id(tmp_path / "data")
    assert len(first) == 32 and machine_id(tmp_path / "data") == first
    assert machine_id(tmp_path / "other") != first


def test_an_ingest_killed_after_its_writes_still_refreshes_keyword_search(tmp_path: Path) -> None:
    docs = write_docs(tmp_path / "docs", files=1)
    kb = open_kb(tmp_path / "kb")
    kb.ingest([str(docs)], progress=False)
    kb._bump(refresh=False, writing=True)  # as a crash leaves it: written, last bump missing
    before = kb.revision()
    report = kb.ingest([str(docs)], progress=False)  # nothing left to write
    assert len(report.unchanged) == 1 and report.chunks_added == 0
    assert kb.revision() == before + 1 and not kb._interrupted()
