"""Several OS processes on one knowledge base: no collisions, no lost write, no stale index.

Each child is a fresh Python process (as the CLI and `langgraph dev` are) that ingests, deletes
and searches the same collection while the other does; the test compares the end state with a
knowledge base built from the same documents in one process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from adaptive_rag.cli import main as cli
from adaptive_rag.knowledge import embeddings
from adaptive_rag.knowledge.chroma.locking import WriteLock
from adaptive_rag.knowledge.chroma.store import ChromaStore
from adaptive_rag.knowledge.loading import TextDocument
from fake_sources import SAMPLE, HashEmbeddings
from servers import chroma_process, free_port
from typer.testing import CliRunner

TESTS = Path(__file__).resolve().parents[1]
ROUNDS = 15
COLLECTION = "shared"

COMMON = """
import json, sys, time
from pathlib import Path
sys.path.insert(0, {tests!r})
work, tag, rounds = Path({work!r}), {tag!r}, {rounds}

def meet(step):
    # wait until both processes reach `step`, so their loops run at the same time
    (work / f"{{step}}-{{tag}}").touch()
    deadline = time.monotonic() + 120
    while len(list(work.glob(f"{{step}}-*"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
"""

SAVES = (
    COMMON
    + """
from adaptive_rag.knowledge.chroma.derived import DerivedIndex
ids = [f"{{tag}}{{i}}" for i in range(200)]
index = DerivedIndex.build(ids, [f"text {{i}} about {{tag}}" for i in range(200)], tag, [{{}}] * 200)
errors = []
meet("start")
for _ in range(rounds):
    try:
        index.save(work / "bm25" / "saves")
        loaded = DerivedIndex.load(work / "bm25" / "saves")
        if loaded is None or any(not i.startswith(loaded.fingerprint) for i in loaded.ids):
            errors.append("read no whole index")
    except Exception as exc:
        errors.append(f"{{type(exc).__name__}}: {{exc}}")
print(json.dumps(errors))
"""
)

WORKER = (
    COMMON
    + """
from adaptive_rag.core.access import Reader
from adaptive_rag.knowledge.chroma.collection import derive
from adaptive_rag.knowledge.loading import TextDocument
from adaptive_rag.knowledge.chroma.store import ChromaStore
from fake_sources import HashEmbeddings

def doc(name):
    words = " ".join(f"{{name}}x{{i}}" for i in range(60))
    return TextDocument(name, f"# {{name}}\\n\\n{{words}}\\n\\nThe kettle manual, page {{name}}.")

kb = ChromaStore.open({kb!r}, {collection!r}, "test:hash", create=True,
                        embeddings=HashEmbeddings())
errors = []
meet("start")
for r in range(rounds):
    try:
        report = kb.ingest_documents([doc(f"{{tag}}-{{r}}"), doc(f"both-{{r % 3}}")])
        errors += [f"failed {{line}}" for line in report.failed + report.duplicates]
        if r >= 2 and r % 2 == 0:
            kb.delete(f"{{tag}}-{{r - 2}}")
        kb.keyword_search(f"{{tag}}-{{r}}x7", 3)
        kb.vector_search("kettle manual", 3)
    except Exception as exc:
        errors.append(f"{{type(exc).__name__}}: {{exc}}")
meet("done")
if tag == "b":  # one after the other: a check reads while no process writes
    meet("checked")
index, stored = kb.derived_index(), kb._chunks.get(include=[])["ids"]
fresh = derive(kb._chunks, index.fingerprint)
graph = lambda i: [sorted(i.graph.entities_of(p)) for p in range(len(i.ids))]
query = lambda i: i.search("kettle manual both-1x3", 10, Reader())
print(json.dumps({{
    "errors": errors,
    "current": index.fingerprint == kb._fingerprint(),
    "as_rebuilt": (index.ids, index.access, graph(index), query(index))
    == (fresh.ids, fresh.access, graph(fresh), query(fresh)),
    "vectors_see_all": {{c for c, _ in kb.vector_search("kettle", len(stored))}} == set(stored),
}}))
if tag == "a":
    meet("checked")
"""
)


def expected_documents(rounds: int) -> list[TextDocument]:
    """The documents both workers leave: theirs not deleted, and the three they share."""

    def doc(name: str) -> TextDocument:
        words = " ".join(f"{name}x{i}" for i in range(60))
        return TextDocument(name, f"# {name}\n\n{words}\n\nThe kettle manual, page {name}.")

    deleted = {r - 2 for r in range(rounds) if r >= 2 and r % 2 == 0}
    kept = [f"{tag}-{r}" for tag in ("a", "b") for r in range(rounds) if r not in deleted]
    return [doc(name) for name in [*kept, *(f"both-{i}" for i in range(3))]]


def run_pair(script: str, work: Path, envs: list[dict[str, str]], **fields: Any) -> list[Any]:
    """Run the script in two processes (tags a and b) at once; return what each printed last.

    A child that fails stops the other at once (it would wait for its partner at each meeting).
    """
    work.mkdir(parents=True, exist_ok=True)
    children = []
    for tag, env in zip(("a", "b"), envs, strict=True):
        code = textwrap.dedent(script).format(
            tests=str(TESTS), work=str(work), tag=tag, rounds=ROUNDS, **fields
        )
        with (work / f"{tag}.out").open("w") as out, (work / f"{tag}.err").open("w") as err:
            children.append(
                subprocess.Popen(
                    [sys.executable, "-c", code], env={**os.environ, **env}, stdout=out, stderr=err
                )
            )
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        codes = [c.poll() for c in children]
        if None not in codes or any(codes):  # both done, or one failed
            break
        time.sleep(0.1)
    for child in children:
        if child.poll() is None:
            child.kill()
        child.wait(timeout=30)
    errors = {tag: (work / f"{tag}.err").read_text()[-3000:] for tag in ("a", "b")}
    assert [c.returncode for c in children] == [0, 0], errors
    return [json.loads((work / f"{tag}.out").read_text().splitlines()[-1]) for tag in ("a", "b")]


def test_two_processes_saving_one_index_at_once_never_collide(tmp_path: Path, tally: Any) -> None:
    errors = run_pair(SAVES, tmp_path / "work", [{}, {}])
    assert errors == [[], []]
    tally(runs=2 * ROUNDS, errors=sum(map(len, errors)))


def check_two_workers(kb: ChromaStore, reference: ChromaStore, results: list[Any]) -> int:
    """Assert each worker ended error-free and in step; return how many chunks went missing."""
    for result in results:
        assert result["errors"] == [], result["errors"]
        assert result["current"] and result["as_rebuilt"] and result["vectors_see_all"], result
    ids = kb._chunks.get(include=[])["ids"]
    expected = set(reference._chunks.get(include=[])["ids"])
    assert len(ids) == len(set(ids)) and set(ids) == expected  # every chunk once, none lost
    by_source = Counter({e["source"]: e["chunks"] for e in kb.sources()})
    assert by_source == Counter({e["source"]: e["chunks"] for e in reference.sources()})
    assert sorted(kb._parents.get(include=[])["ids"]) == sorted(
        reference._parents.get(include=[])["ids"]
    )
    return len(expected - set(ids))


def test_two_processes_ingest_delete_and_search_one_data_folder(tmp_path: Path, tally: Any) -> None:
    data = {"ADAPTIVE_RAG_DATA": str(tmp_path / "data")}
    kb_path = tmp_path / "kb"
    results = run_pair(
        WORKER, tmp_path / "work", [data, data], kb=str(kb_path), collection=COLLECTION
    )
    kb = ChromaStore.open(str(kb_path), COLLECTION, "test:hash", embeddings=HashEmbeddings())
    reference = ChromaStore.open(
        str(tmp_path / "reference"), "ref", "test:hash", create=True, embeddings=HashEmbeddings()
    )
    reference.ingest_documents(expected_documents(ROUNDS))
    lost = check_two_workers(kb, reference, results)
    assert kb.revision() == 2 * (2 * ROUNDS + sum(r >= 2 and r % 2 == 0 for r in range(ROUNDS)))
    tally(runs=4 * ROUNDS, errors=sum(len(r["errors"]) for r in results), lost=lost)


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    port = free_port()
    with chroma_process(tmp_path_factory.mktemp("chroma-server"), port):
        yield "127.0.0.1", port


@pytest.mark.server
@pytest.mark.parametrize("data_folders", ["one", "two"])
def test_two_processes_on_one_chroma_server(
    chroma_server: tuple[str, int],
    data_folders: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    tally: Any,
) -> None:
    """One data folder: its lock serialises them. Two (two machines): the revision token."""
    host, port = chroma_server
    server = {"CHROMA_HOST": host, "CHROMA_PORT": str(port)}
    folders = [tmp_path / "data-a", tmp_path / ("data-a" if data_folders == "one" else "data-b")]
    envs = [{**server, "ADAPTIVE_RAG_DATA": str(folder)} for folder in folders]
    collection = f"server-{data_folders}"
    results = run_pair(WORKER, tmp_path / "work", envs, kb="", collection=collection)
    reference = ChromaStore.open(
        str(tmp_path / "reference"), "ref", "test:hash", create=True, embeddings=HashEmbeddings()
    )
    reference.ingest_documents(expected_documents(ROUNDS))
    for name, value in server.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("ADAPTIVE_RAG_DATA", str(tmp_path / "data-check"))
    kb = ChromaStore.open("", collection, "test:hash", embeddings=HashEmbeddings())
    lost = check_two_workers(kb, reference, results)
    tally(runs=4 * ROUNDS, errors=sum(len(r["errors"]) for r in results), lost=lost)


HOLDER = """
import sys, time
from pathlib import Path
from adaptive_rag.knowledge.chroma.locking import WriteLock
with WriteLock(Path({lock!r})).held(60, print):
    print("holding", flush=True)
    time.sleep({seconds})
"""


@pytest.mark.parametrize("holds", [1.0, 20.0])
def test_the_cli_waits_for_another_writer_and_says_so(
    holds: float, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tally: Any
) -> None:
    """A writer that finishes within ADAPTIVE_RAG_WRITE_WAIT is waited for; else a clear exit 3."""
    monkeypatch.setenv("ADAPTIVE_RAG_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("CHROMA_HOST", raising=False)
    monkeypatch.setenv("ADAPTIVE_RAG_WRITE_WAIT", "3")
    monkeypatch.setattr(embeddings, "_CACHE", {"local:multilingual-e5-small": HashEmbeddings()})
    kb_path = tmp_path / "kb"
    lock = kb_path / "bm25" / "default@write.lock"
    code = textwrap.dedent(HOLDER).format(lock=str(lock), seconds=holds)
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        started = time.monotonic()
        result = CliRunner().invoke(
            cli.app, ["ingest", str(SAMPLE / "company.md"), "--kb-path", str(kb_path)]
        )
        waited = time.monotonic() - started
    finally:
        holder.kill()
        holder.wait(timeout=30)
    assert f"waiting for process {holder.pid}, which is writing to 'default'" in result.output
    if holds < 3:
        assert result.exit_code == 0 and "1 added" in result.output, result.output
        assert waited >= holds * 0.5
    else:
        assert result.exit_code == cli.EXIT_NO_KB
        assert f"process {holder.pid} kept writing to 'default'" in result.output
        assert "ADAPTIVE_RAG_WRITE_WAIT" in result.output and 3 <= waited < 20
    tally(faults=1)


def test_threads_of_one_process_queue_on_the_write_lock(tmp_path: Path) -> None:
    """Two handles in one process (two threads) take turns as two processes do."""
    lock_path = tmp_path / "x@write.lock"
    first, second = WriteLock(lock_path), WriteLock(lock_path)
    order: list[str] = []

    def take() -> None:
        with second.held(5, lambda holder: order.append(f"waits for {holder}")):
            order.append("second holds")

    with first.held(5, lambda holder: None):
        with first.held(5, lambda holder: None):  # re-entrant for its holder
            pass
        thread = threading.Thread(target=take)
        thread.start()
        time.sleep(0.5)
        order.append("first done")
    thread.join(timeout=10)
    assert order == [f"waits for process {os.getpid()}", "first done", "second holds"]
