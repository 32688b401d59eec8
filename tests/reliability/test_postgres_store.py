"""The PostgreSQL store under faults and load: every run ends, nothing is lost or torn or leaked.

- four worker processes (four owners) ingest, delete and search one database at once, while a
  checker reads it in snapshots: no document is ever seen in part, no reader sees another's;
- an ingest killed with SIGKILL between documents leaves whole documents only, and a rerun ends it;
- connections dropped mid-search, and the database stopped and started again, under the graph.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from adaptive_rag import Context, Services, build_graph
from adaptive_rag.knowledge.loading import TextDocument
from adaptive_rag.knowledge.postgres import database
from adaptive_rag.knowledge.postgres.database import APPLICATION
from adaptive_rag.knowledge.postgres.store import PostgresStore
from adaptive_rag.knowledge.retriever import HybridRetriever
from fake_sources import SAMPLE, HashEmbeddings
from fakes import ScriptedChatModel

TESTS = Path(__file__).resolve().parents[1]
ROUNDS = 8
WORKERS = {"a": ("alice", ()), "b": ("bob", ()), "c": ("", ()), "d": ("carol", ("fin",))}
QUESTION = "What is the restocking fee for returns?"
FRESH = Context(answer_cache=False)
"""Every run searches (no answer recalled from an earlier one)."""

DOCUMENT = """
def doc(name):
    parts = [f"## Part {{p}}\\n\\n" + " ".join(f"{{name}}x{{p}}w{{i}}" for i in range(90))
             for p in range(3)]
    return TextDocument(name, f"# {{name}}\\n\\nThe kettle manual, page {{name}}.\\n\\n"
                        + "\\n\\n".join(parts))
"""

WORKER = (
    """
import json, os, sys, time
from pathlib import Path
sys.path.insert(0, {tests!r})
from adaptive_rag.core.access import Reader
from adaptive_rag.knowledge.loading import TextDocument
from adaptive_rag.knowledge.postgres.store import PostgresStore
from adaptive_rag.knowledge.retriever import HybridRetriever
from fake_sources import HashEmbeddings
"""
    + DOCUMENT
    + """
tag, owner, groups = {tag!r}, {owner!r}, tuple({groups!r})
kb = PostgresStore.open({uri!r}, "shared", "test:hash", create=True, embeddings=HashEmbeddings())
reader = Reader(owner, groups)
errors, leaks, searches = [], 0, 0
(Path({work!r}) / f"ready-{{tag}}").touch()
while len(list(Path({work!r}).glob("ready-*"))) < 4:
    time.sleep(0.02)
for r in range({rounds}):
    try:
        report = kb.ingest_documents([doc(f"{{tag}}-{{r}}"), doc(f"shared-{{r % 3}}")],
                                     owner=owner, groups=groups)
        errors += [f"failed {{line}}" for line in report.failed + report.duplicates]
        if r >= 2 and r % 2 == 0:
            kb.delete(f"{{tag}}-{{r - 2}}", owner=owner)
        found = [c for c, _ in kb.keyword_search(f"kettle {{tag}}-{{r}}x1w7", 8, reader)]
        found += [c for c, _ in kb.vector_search("kettle manual", 8, reader=reader)]
        docs = kb.get(found)
        docs += HybridRetriever(kb=kb, k=6, reader=reader).invoke(f"kettle manual shared-{{r % 3}}")
        searches += 3
        leaks += sum(not reader.may_read(d.metadata) for d in docs)
    except Exception as exc:
        errors.append(f"{{type(exc).__name__}}: {{exc}}")
print(json.dumps({{"errors": errors, "leaks": leaks, "searches": searches}}))
"""
)

KILLED = (
    """
import sys
sys.path.insert(0, {tests!r})
from adaptive_rag.knowledge import ingest
from adaptive_rag.knowledge.loading import TextDocument
from adaptive_rag.knowledge.postgres.store import PostgresStore
from adaptive_rag.knowledge.postgres.writing import PostgresWrites
from fake_sources import HashEmbeddings
"""
    + DOCUMENT
    + """
ingest.WRITE_GROUP_CHUNKS = 4  # embed and write a few documents at a time
written = PostgresWrites._write

def write(self, item, vectors, report):
    written(self, item, vectors, report)
    print("wrote", item.source, flush=True)

PostgresWrites._write = write
kb = PostgresStore.open({uri!r}, "killed", "test:hash", create=True, embeddings=HashEmbeddings())
kb.ingest_documents([doc(f"d{{i}}") for i in range({documents})])
"""
)


def consistent(uri: str, collection: str) -> tuple[int, list[str]]:
    """Read the collection in one snapshot; return its documents and what is torn or miscounted.

    Every document's chunks are all there (as many as each says its file had) or none, and the
    counts BM25 reads equal the chunks' own.
    """
    import psycopg

    with psycopg.connect(uri, autocommit=True) as conn, conn.transaction():
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        number, chunks, tokens = conn.execute(
            "SELECT number, chunks, tokens FROM adaptive_rag_collections WHERE name = %s",
            (collection,),
        ).fetchone()
        rows = conn.execute(
            f"SELECT source, owner, count(*), min((metadata->>'file_chunks')::int),"
            f" max((metadata->>'file_chunks')::int) FROM kb{number}_chunks GROUP BY source, owner"
        ).fetchall()
        held, length = conn.execute(
            f"SELECT count(*), coalesce(sum(length), 0) FROM kb{number}_chunks"
        ).fetchone()
    problems = [f"{s} ({o!r}): {n} of {lo}..{hi}" for s, o, n, lo, hi in rows if not n == lo == hi]
    if (chunks, tokens) != (held, length):
        problems.append(f"counts {chunks}/{tokens} but {held} chunks of {length} tokens")
    return len(rows), problems


def test_four_workers_ingest_delete_and_search_one_database(
    pg_schemas: Any, tmp_path: Path, tally: Any
) -> None:
    uri = pg_schemas.fresh()
    PostgresStore.open(uri, "shared", "test:hash", create=True, embeddings=HashEmbeddings())
    children = []
    for tag, (owner, groups) in WORKERS.items():
        code = textwrap.dedent(WORKER).format(
            tests=str(TESTS),
            work=str(tmp_path),
            tag=tag,
            owner=owner,
            groups=list(groups),
            uri=uri,
            rounds=ROUNDS,
        )
        out = (tmp_path / f"{tag}.out").open("w")
        err = (tmp_path / f"{tag}.err").open("w")
        children.append(subprocess.Popen([sys.executable, "-c", code], stdout=out, stderr=err))
    torn: list[str] = []
    checks = 0
    deadline = time.monotonic() + 600
    while any(c.poll() is None for c in children) and time.monotonic() < deadline:
        torn += consistent(uri, "shared")[1]  # while they write: never a document in part
        checks += 1
        time.sleep(0.05)
    for child in children:
        if child.poll() is None:
            child.kill()
        child.wait(timeout=30)
    logs = {tag: (tmp_path / f"{tag}.err").read_text()[-2000:] for tag in WORKERS}
    assert [c.returncode for c in children] == [0] * len(WORKERS), logs
    results = [json.loads((tmp_path / f"{t}.out").read_text().splitlines()[-1]) for t in WORKERS]
    kb = PostgresStore.open(uri, "shared", "test:hash", embeddings=HashEmbeddings())
    deleted = {r - 2 for r in range(ROUNDS) if r >= 2 and r % 2 == 0}
    expected = {
        (name, owner)
        for tag, (owner, _) in WORKERS.items()
        for name in [*(f"{tag}-{r}" for r in range(ROUNDS) if r not in deleted)]
        + [f"shared-{i}" for i in range(3)]
    }
    stored = {(s["source"], s["owner"]) for s in kb.sources()}
    errors = [e for r in results for e in r["errors"]]
    leaks = sum(r["leaks"] for r in results)
    tally(
        runs=sum(r["searches"] for r in results) + checks,
        errors=len(errors) + len(torn),
        lost=len(expected - stored),
        leaks=leaks,
    )
    assert not errors and not torn, (errors, torn[:5])
    assert stored == expected and leaks == 0
    assert consistent(uri, "shared") == (len(expected), [])


def test_kill_9_mid_ingest_leaves_whole_documents_and_a_rerun_ends_it(
    pg_schemas: Any, tmp_path: Path, tally: Any
) -> None:
    uri, documents = pg_schemas.fresh(), 24
    code = textwrap.dedent(KILLED).format(tests=str(TESTS), uri=uri, documents=documents)
    child = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    written = 0
    for line in child.stdout:
        written += line.startswith("wrote")
        if written == 5:
            os.kill(child.pid, signal.SIGKILL)
            break
    child.wait(timeout=60)
    assert child.returncode == -signal.SIGKILL, child.stderr.read() if child.stderr else ""
    found, problems = consistent(uri, "killed")
    assert not problems and written <= found < documents  # whole documents only, some missing
    waited: list[str] = []
    kb = PostgresStore.open(uri, "killed", "test:hash", embeddings=HashEmbeddings())
    kb.on_wait = waited.append
    scope: dict[str, Any] = {"TextDocument": TextDocument}
    exec(textwrap.dedent(DOCUMENT).format(), scope)  # the same documents as the killed child
    report = kb.ingest_documents([scope["doc"](f"d{i}") for i in range(documents)])
    assert not waited  # the dead writer's lock died with its connection
    assert len(report.unchanged) == found and len(report.added) == documents - found
    assert consistent(uri, "killed") == (documents, [])
    tally(runs=2, faults=1, lost=documents - consistent(uri, "killed")[0])


def graph_over(kb: Any) -> Any:
    model = ScriptedChatModel.with_script()
    return build_graph(
        services=Services(
            chat_model=model, knowledge=kb, retriever=HybridRetriever(kb=kb), no_web=True
        )
    )


def test_connections_dropped_mid_search_never_end_a_run(
    pg_schemas: Any, tally: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import psycopg

    monkeypatch.setattr(database, "DOWN_FOR", 0.5)
    uri = pg_schemas.fresh()
    kb = PostgresStore.open(uri, "dropped", "test:hash", create=True, embeddings=HashEmbeddings())
    kb.ingest([str(SAMPLE)], progress=False)
    graph = graph_over(kb)
    stop, dropped = threading.Event(), [0]

    def drop() -> None:  # end every one of this process's store connections, again and again
        with psycopg.connect(uri, autocommit=True) as conn:
            while not stop.wait(0.5):
                rows = conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE application_name = %s AND pid <> pg_backend_pid()",
                    (f"{APPLICATION} {os.getpid()}",),
                ).fetchall()
                dropped[0] += sum(bool(r[0]) for r in rows)

    killer = threading.Thread(target=drop)
    killer.start()
    outputs, errors = [], []
    deadline = time.monotonic() + 120
    try:  # at least 20 runs, and until 5 connections were dropped under them
        while (len(outputs) < 20 or dropped[0] < 5) and time.monotonic() < deadline:
            try:
                outputs.append(graph.invoke({"question": QUESTION}, context=FRESH))
            except Exception as exc:  # a run that ends in an exception: what must never happen
                errors.append(repr(exc))
    finally:
        stop.set()
        killer.join()
    time.sleep(database.DOWN_FOR)  # if a drop was taken for an outage, it is over
    after = graph.invoke({"question": QUESTION}, context=FRESH)
    tally(runs=len(outputs) + len(errors) + 1, faults=dropped[0], errors=len(errors))
    tally(answers=sum(bool(o["answer"].strip()) for o in [*outputs, after]))
    assert not errors and dropped[0] > 0
    assert all(o["diagnostics"]["steps"][-1] == "finalize" for o in outputs)
    assert after["sources"] and after["sources"][0]["title"] == "Returns"  # connections again


def test_the_database_stopped_then_started_again(
    private_postgres: Any, tally: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    uri, server = private_postgres
    monkeypatch.setattr(database, "DOWN_FOR", 0.5)
    kb = PostgresStore.open(uri, "restart", "test:hash", create=True, embeddings=HashEmbeddings())
    kb.ingest([str(SAMPLE)], progress=False)
    graph = graph_over(kb)
    before = graph.invoke({"question": QUESTION}, context=FRESH)
    server.stop()
    down = graph.invoke({"question": QUESTION}, context=FRESH)
    server.start()
    time.sleep(database.DOWN_FOR)  # found down: calls fail at once for that long
    again = graph.invoke({"question": QUESTION}, context=FRESH)
    tally(runs=3, faults=1, answers=sum(bool(o["answer"].strip()) for o in (before, down, again)))
    assert before["sources"] and again["sources"]  # the same store, reconnected
    assert down["decline"]["reason"] == "no_knowledge_base" and down["sources"] == []
