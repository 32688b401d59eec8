"""The PostgreSQL store against the Chroma store: recall per channel, search time, write visibility.

Each corpus is ingested into Chroma once (embedded once) and copied into PostgreSQL with its
vectors (`adaptive-rag copy`'s code), so both stores search the same chunks and vectors; every
question runs on both, one after the other. Visibility: one process writes documents to
PostgreSQL while another searches for each one's own word, every few milliseconds.
"""

from __future__ import annotations

import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import uuid
from pathlib import Path
from typing import Any

import numpy as np
from adaptive_rag.core.access import access_metadata
from adaptive_rag.evaluation.metrics import ranking_scores
from adaptive_rag.evaluation.sets import EvalSet
from adaptive_rag.knowledge.chroma.store import ChromaStore
from adaptive_rag.knowledge.interface import KnowledgeStore
from adaptive_rag.knowledge.loading import TextDocument
from adaptive_rag.knowledge.postgres.copying import copy_collection, vector_size
from adaptive_rag.knowledge.postgres.schema import SEARCHED
from adaptive_rag.knowledge.postgres.store import PostgresStore
from adaptive_rag.knowledge.retriever import HybridRetriever
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from retrieval_bench import MODES, _ingest, ranked_doc_ids
from scale_bench import (
    AUTHORS,
    PUBLISHERS,
    VOCAB,
    RandomEmbeddings,
    _zipf_name,
    synthetic_batches,
    synthetic_entities,
)


def parity_table(sets: list[EvalSet], limit: int, embedding_model: str, uri: str) -> list[Any]:
    """Score every search mode on both stores, question by question; one row per set and mode."""
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for number, dataset in enumerate(sets):
            chroma, _, _ = _ingest(dataset, Path(tmp), number, embedding_model)
            name = f"bench-{uuid.uuid4().hex[:8]}-{number}"
            pg = PostgresStore.open(
                uri, name, chroma.embedding_model, True, chroma._embeddings, vector_size(chroma)
            )
            copy_collection(chroma, pg)
            questions = list(dataset.questions)[: limit or None]
            for label, mode, graph, facets in MODES:
                scores: dict[str, list[dict[str, float]]] = {"chroma": [], "postgres": []}
                times: dict[str, list[float]] = {"chroma": [], "postgres": []}
                same = 0
                pair: list[tuple[str, KnowledgeStore]] = [("chroma", chroma), ("postgres", pg)]
                for i, q in enumerate(questions):
                    ranked = {}
                    for store, kb in pair if i % 2 == 0 else reversed(pair):  # which goes first
                        retriever = HybridRetriever(
                            kb=kb, k=30, fetch_k=30, mode=mode, graph=graph, facets=facets
                        )
                        started = time.perf_counter()
                        ranked[store] = ranked_doc_ids(retriever, q["question"])
                        times[store].append(time.perf_counter() - started)
                        scores[store].append(ranking_scores(ranked[store], set(q["gold_doc_ids"])))
                    same += ranked["chroma"][:4] == ranked["postgres"][:4]
                row: dict[str, Any] = {"dataset": dataset.name, "mode": label}
                row["questions"] = len(questions)
                for metric in ("hit@4", "allgold@4", "allgold@10"):
                    for store in ("chroma", "postgres"):
                        mean = statistics.mean(s[metric] for s in scores[store])
                        row[f"{store} {metric}"] = round(mean, 3)
                row["same top 4"] = f"{same}/{len(questions)}"
                for store in ("chroma", "postgres"):
                    row[f"{store} median ms"] = round(1000 * statistics.median(times[store]), 1)
                rows.append(row)
                print(row, flush=True)
    return rows


FOUND_WITHIN = 30
"""Seconds the searcher looks for a write before counting it never found."""


def visibility(uri: str, writes: int = 20) -> dict[str, Any]:
    """Time from a write's commit to another process's search finding it; its first search's cost.

    The writer ingests one small document at a time, each with a word of its own; the searcher
    (another process, its own connections) searches for the next word every 2 ms and records when
    it first finds it, and how long each search took.
    """
    name = f"visible-{uuid.uuid4().hex[:8]}"
    script = textwrap.dedent(
        f"""
        import json, sys, time
        sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})
        import numpy as np
        from scale_bench import RandomEmbeddings
        from adaptive_rag.core.access import Reader
        from adaptive_rag.knowledge.postgres.store import PostgresStore
        kb = PostgresStore.open({uri!r}, {name!r}, "test:random", create=True,
                                embeddings=RandomEmbeddings(np.random.default_rng(1)))
        print("ready", flush=True)
        found = []
        for i in range({writes}):
            word, took, deadline = f"marker{{i}}x", [], time.time() + {FOUND_WITHIN}
            while True:
                started = time.time()
                hits = kb.keyword_search(word, 1, Reader())
                took.append(time.time() - started)
                if hits or started > deadline:  # never found: the run goes on, and says so
                    found.append({{"at": time.time() if hits else None, "took": took}})
                    break
                time.sleep(0.002)
        print(json.dumps(found), flush=True)
        """
    )
    writer = PostgresStore.open(
        uri, name, "test:random", True, RandomEmbeddings(np.random.default_rng(0))
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=dict(os.environ)
    )
    assert child.stdout is not None
    child.stdout.readline()  # ready
    committed = []
    for i in range(writes):
        time.sleep(0.2)
        writer.ingest_documents([TextDocument(f"note-{i}", f"A note holding marker{i}x.")])
        committed.append(time.time())
    found = json.loads(child.stdout.readline())
    child.wait(timeout=60)
    delays = [
        1000 * (f["at"] - c) for f, c in zip(found, committed, strict=True) if f["at"] is not None
    ]
    first = [1000 * f["took"][-1] for f in found]  # the search that found it
    steady = [1000 * t for f in found for t in f["took"][:-1]]
    return {
        "writes": writes,
        "never found": writes - len(delays),
        "commit to found, median ms": round(statistics.median(delays), 1) if delays else None,
        "commit to found, max ms": round(max(delays), 1) if delays else None,
        "finding search, median ms": round(statistics.median(first), 2),
        "other searches, median ms": round(statistics.median(steady), 2) if steady else None,
    }


class SeededEmbeddings(Embeddings):
    """A unit vector drawn from the text's own seed: the same text, the same vector, anywhere."""

    def __init__(self, dim: int = 384) -> None:
        self._dim = dim

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Return one vector per text."""
        return [self.embed_query(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        """Return the text's vector."""
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
        vec = np.random.default_rng(seed).standard_normal(self._dim).astype(np.float32)
        return [float(x) for x in vec / np.linalg.norm(vec)]


WORKER_MEMORY = """
import json, resource, sys
sys.path.insert(0, {bench!r})
from store_bench import SeededEmbeddings
from adaptive_rag.knowledge.postgres.store import PostgresStore
from adaptive_rag.knowledge.retriever import HybridRetriever
from adaptive_rag.knowledge.chroma.store import ChromaStore
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
kb = PostgresStore.open({uri!r}, {name!r}, "test:random", embeddings=SeededEmbeddings({dim}))
for query in json.loads(sys.stdin.read()):
    HybridRetriever(kb=kb, k=10, fetch_k=20).invoke(query)
try:  # this process's own peak: ru_maxrss keeps the forking parent's across exec
    with open("/proc/self/status") as status:
        print(round(next(int(l.split()[1]) for l in status if l.startswith("VmHWM")) / 1024))
except OSError:
    print(round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))
"""


def scale_pair(
    sizes: list[int], uri: str, queries: int = 50, dim: int = 384, chroma_up_to: int = 100_000
) -> list[Any]:
    """Load the same synthetic chunks into both stores; time the default search on each.

    The queries alternate between the stores. A size above `chroma_up_to` loads PostgreSQL alone
    (Chroma's columns stay empty). A worker process then runs the same queries on the PostgreSQL
    store alone and reports its peak memory: what a worker holds at that size.
    """
    rows = []
    for size in sizes:
        rng = np.random.default_rng(0)

        def metadata(i: int, rng: np.random.Generator = rng) -> dict[str, Any]:
            return {
                "source": "synthetic",
                "doc_id": f"d{i}",
                "entities": synthetic_entities(rng),
                "publisher": _zipf_name(rng, "Publisher", PUBLISHERS),
                "author": _zipf_name(rng, "Author", AUTHORS),
                **access_metadata(),
            }

        name = f"scale-{uuid.uuid4().hex[:8]}"
        with tempfile.TemporaryDirectory() as tmp:
            chroma = (
                ChromaStore.open(tmp, "scale", "test:random", True, SeededEmbeddings(dim))
                if size <= chroma_up_to
                else None
            )
            pg = PostgresStore.open(uri, name, "test:random", True, SeededEmbeddings(dim), dim)
            loads = {"chroma": 0.0, "postgres": 0.0}
            loaded, reported = 0, time.perf_counter()
            with pg.loading():  # the vectors indexed once, as the load ends
                for ids, vectors, texts, metas in synthetic_batches(size, rng, metadata, dim):
                    if chroma is not None:
                        started = time.perf_counter()
                        chroma._chunks.add(
                            ids=ids, embeddings=vectors, documents=texts, metadatas=metas
                        )
                        loads["chroma"] += time.perf_counter() - started
                    started = time.perf_counter()
                    docs = [
                        Document(t, metadata=m, id=i)
                        for i, t, m in zip(ids, texts, metas, strict=True)
                    ]
                    with pg._transaction() as conn:
                        pg._count(conn, pg.load(conn, list(zip(docs, vectors, strict=True))), [])
                    loads["postgres"] += time.perf_counter() - started
                    loaded += len(ids)
                    if time.perf_counter() - reported > 60:
                        print(f"  {loaded:,} of {size:,} chunks loaded", flush=True)
                        reported = time.perf_counter()
                started = time.perf_counter()
            loads["postgres"] += time.perf_counter() - started  # building the index
            stores: list[tuple[str, KnowledgeStore]] = [("postgres", pg)]
            if chroma is not None:
                started = time.perf_counter()
                chroma._bump()  # derives the BM25 index, the graph and the facets
                loads["chroma"] += time.perf_counter() - started
                stores.insert(0, ("chroma", chroma))
            asked = [
                " ".join(rng.choice(VOCAB, 8))
                + f", as {_zipf_name(rng, 'Publisher', PUBLISHERS)} wrote"
                for _ in range(queries)
            ]
            times: dict[str, list[float]] = {label: [] for label, _ in stores}
            for q, query in enumerate(asked):
                for label, kb in stores if q % 2 == 0 else reversed(stores):
                    started = time.perf_counter()
                    HybridRetriever(kb=kb, k=10, fetch_k=20).invoke(query)
                    times[label].append(1000 * (time.perf_counter() - started))
            row: dict[str, Any] = {"chunks": size}
            for label in ("chroma", "postgres"):
                measured = sorted(times.get(label, []))
                row[f"{label} load s"] = round(loads[label]) if measured else ""
                row[f"{label} p50 ms"] = round(statistics.median(measured), 1) if measured else ""
                row[f"{label} p95 ms"] = (
                    round(measured[int(0.95 * (len(measured) - 1))], 1) if measured else ""
                )
            row["p50 postgres / chroma"] = (
                round(row["postgres p50 ms"] / row["chroma p50 ms"], 2)
                if chroma is not None
                else ""
            )
            row["database MB"] = _database_mb(pg)
            row["worker peak MB"] = _worker_memory(uri, name, asked, dim)
            rows.append(row)
            print(row, flush=True)
    return rows


def _database_mb(pg: PostgresStore) -> int:
    """Return the size of one collection's tables and indexes in the database."""
    parts = (*SEARCHED, "parents", "answers")
    rows = pg._db.rows(
        "SELECT sum(pg_total_relation_size(t::regclass)) FROM unnest(%s::text[]) t",
        ([getattr(pg._t, p) for p in parts],),
    )
    return round(int(rows[0][0]) / 2**20)


def _worker_memory(uri: str, name: str, asked: list[str], dim: int) -> int:
    """Run the queries in a fresh process on the PostgreSQL store; return its peak memory (MB)."""
    code = textwrap.dedent(WORKER_MEMORY).format(
        bench=str(Path(__file__).resolve().parent), uri=uri, name=name, dim=dim
    )
    done = subprocess.run(
        [sys.executable, "-c", code], input=json.dumps(asked), capture_output=True, text=True
    )
    if done.returncode:
        raise RuntimeError(done.stderr[-2000:])
    return int(done.stdout.strip().splitlines()[-1])
