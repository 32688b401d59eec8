"""The PostgreSQL store's own workings: BM25 as bm25s scores it, the graph's tables, counts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from adaptive_rag.core.access import Reader
from adaptive_rag.knowledge.chroma.store import ChromaStore
from adaptive_rag.knowledge.postgres.store import PostgresStore
from adaptive_rag.knowledge.retriever import HybridRetriever
from fake_sources import SAMPLE, HashEmbeddings

QUERIES = [
    "restocking fee returns",
    "Kestrel battery battery life",  # a word twice counts twice
    "Heron hub warranty China Suzhou",
    "退货 运费",
    "nothing here matches zzzz",
]


PUBLISHERS = ["Polygon", "Fortune", "The Age", "Polygon", "Fortune", "Polygon"]


@pytest.fixture
def both(tmp_path: Path, pg_schemas: Any) -> tuple[ChromaStore, PostgresStore]:
    news = tmp_path / "news.jsonl"
    news.write_text(
        "\n".join(
            json.dumps(
                {"text": f"Report {i}: the Kestrel battery lasts {i + 2} years.", "publisher": p}
            )
            for i, p in enumerate(PUBLISHERS)
        )
    )
    chroma = ChromaStore.open(str(tmp_path / "kb"), "twin", "test:hash", True, HashEmbeddings())
    pg = PostgresStore.open(pg_schemas.fresh(), "twin", "test:hash", True, HashEmbeddings())
    for kb in (chroma, pg):
        kb.ingest([str(SAMPLE), str(news)], progress=False)
        kb.ingest([str(SAMPLE / "company.md")], progress=False, owner="alice")
    return chroma, pg


def test_bm25_scores_are_bm25s_scores(both: tuple[ChromaStore, PostgresStore]) -> None:
    chroma, pg = both
    for reader in (Reader(), Reader("alice")):
        for query in QUERIES:
            want = chroma.keyword_search(query, 10, reader)
            got = pg.keyword_search(query, 10, reader)
            assert [round(s, 4) for _, s in got] == [round(s, 4) for _, s in want], query
            assert _by_score(got) == _by_score(want), query  # ties may come in either order


@pytest.mark.parametrize(
    "way",
    [
        "rare terms first, common ones looked up",
        "rare terms first, common ones read whole",
        "every chunk holding a term",
        "every chunk scored read for access",
        "common ones looked up for the best n alone",
    ],
)
def test_every_way_bm25_is_computed_gives_bm25s_scores(
    both: tuple[ChromaStore, PostgresStore], monkeypatch: pytest.MonkeyPatch, way: str
) -> None:
    from adaptive_rag.knowledge.postgres import bm25

    chroma, pg = both
    settings = {
        "rare terms first, common ones looked up": {"SCAN_RATIO": 0},
        "rare terms first, common ones read whole": {"SCAN_RATIO": 10**9},
        "every chunk holding a term": {"COMMON_SHARE": 0.0},
        "every chunk scored read for access": {"DEPTH": 0},
        "common ones looked up for the best n alone": {"SCAN_RATIO": 0, "DEPTH": 1},
    }[way]
    for name, value in settings.items():
        monkeypatch.setattr(bm25, name, value)
    question = "What did Polygon report about the Kestrel battery life?"
    (polygon,) = pg.named_values(question)
    (twin,) = chroma.named_values(question)
    for reader in (Reader(), Reader("alice")):
        for query in [*QUERIES, question]:
            want = chroma.keyword_search(query, 10, reader)
            got = pg.keyword_search(query, 10, reader)
            assert [round(s, 4) for _, s in got] == [round(s, 4) for _, s in want], query
            assert _by_score(got) == _by_score(want), query
        (want,) = chroma.keyword_search_within(question, 3, reader, [twin])
        (got,) = pg.keyword_search_within(question, 3, reader, [polygon])
        assert len(got) == 3 and [round(s, 4) for _, s in got] == [round(s, 4) for _, s in want]
        assert _by_score(got) == _by_score(want)


def test_counts_follow_every_write_and_a_delete_leaves_no_posting_or_edge(
    both: tuple[ChromaStore, PostgresStore],
) -> None:
    _, pg = both
    source = str(SAMPLE / "company.md")
    revision = pg.revision()
    assert pg.delete(source, owner="alice") > 0 and pg.revision() == revision + 1
    (news,) = [s["source"] for s in pg.sources() if s["source"].endswith("news.jsonl")]
    assert pg.delete(news) == len(PUBLISHERS)  # values held by its chunks alone are counted 0
    rows = pg._db.rows(
        f"SELECT (SELECT count(*) FROM {pg._t.chunks}), (SELECT coalesce(sum(length), 0)"
        f" FROM {pg._t.chunks}), chunks, tokens FROM adaptive_rag_collections WHERE name = %s",
        (pg.name,),
    )
    held, length, counted, tokens = rows[0]
    assert (held, length) == (counted, tokens)
    orphans = pg._db.rows(
        f"SELECT count(*) FROM {pg._t.terms} t LEFT JOIN {pg._t.chunks} c ON c.id = t.chunk_id"
        f" WHERE c.id IS NULL UNION ALL SELECT count(*) FROM {pg._t.entities} e"
        f" LEFT JOIN {pg._t.chunks} c ON c.id = e.chunk_id WHERE c.id IS NULL"
    )
    assert [r[0] for r in orphans] == [0, 0]
    t = pg._t
    drift = pg._db.rows(
        f"SELECT count(*) FROM {t.df} d"
        f" WHERE d.df <> (SELECT count(*) FROM {t.terms} x WHERE x.term = d.term)"
        f" UNION ALL SELECT count(*) FROM {t.entity_df} d"
        f" WHERE d.df <> (SELECT count(*) FROM {t.entities} x WHERE x.entity = d.entity)"
        f" UNION ALL SELECT count(*) FROM {t.value_df} d WHERE d.df <> (SELECT count(*)"
        f" FROM {t.facets} x WHERE x.field = d.field AND x.value = d.value)"
    )
    assert [r[0] for r in drift] == [0, 0, 0]  # each count is its rows' count, after a delete
    counted = pg._db.rows(
        f"SELECT (SELECT count(*) FROM {t.df} WHERE df > 0),"
        f" (SELECT count(DISTINCT term) FROM {t.terms}),"
        f" (SELECT count(*) FROM {t.value_df} WHERE df > 0),"
        f" (SELECT count(*) FROM (SELECT DISTINCT field, value FROM {t.facets}) v)"
    )
    assert counted[0][0] == counted[0][1] > 0 and counted[0][2] == counted[0][3] == 0
    assert pg.ingest([str(SAMPLE)], progress=False).unchanged  # unchanged: no revision moved
    assert pg.revision() == revision + 2


def test_a_writer_waits_for_another_and_says_so(
    both: tuple[ChromaStore, PostgresStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    from adaptive_rag.knowledge.errors import KnowledgeBaseBusyError

    _, pg = both
    other = PostgresStore(pg._db, pg.name, pg.embedding_model, HashEmbeddings(), pg._t.number)
    said: list[str] = []
    other.on_wait = said.append
    monkeypatch.setenv("ADAPTIVE_RAG_WRITE_WAIT", "1")
    import threading

    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with pg._writing():
            held.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(10)
    try:
        with pytest.raises(KnowledgeBaseBusyError, match="ADAPTIVE_RAG_WRITE_WAIT"):
            other.delete("nothing.md")
    finally:
        release.set()
        holder.join()
    assert said and "waiting for another writer" in said[0]
    assert other.delete("nothing.md") == 0  # the lock is free again


def _by_score(found: list[tuple[str, float]]) -> dict[float, set[str]]:
    """Return the chunks found at each score (rounded): a ranking up to the order of ties."""
    grouped: dict[float, set[str]] = {}
    for cid, score in found[:-1]:  # the last place may hold one of several tied chunks
        grouped.setdefault(round(score, 4), set()).add(cid)
    return grouped


def test_a_very_long_word_is_stored_and_found(pg_schemas: Any) -> None:
    from adaptive_rag.knowledge.loading import TextDocument

    pg = PostgresStore.open(pg_schemas.fresh(), "long", "test:hash", True, HashEmbeddings())
    word = "ก" * 300  # a script without spaces: one token of 900 bytes
    report = pg.ingest_documents([TextDocument("thai.txt", f"{word} and the kettle manual")])
    assert report.added == ["thai.txt"] and not report.failed
    assert pg.keyword_search(word, 3, Reader())  # keyed by its hash, at ingest and at query


def test_a_role_that_may_only_read_opens_and_searches(pg_schemas: Any) -> None:
    """A worker given read access alone (SELECT on the tables) searches an existing collection."""
    import uuid

    import psycopg
    from adaptive_rag.knowledge.postgres.database import forget

    uri = pg_schemas.fresh()
    writer = PostgresStore.open(uri, "shared", "test:hash", True, HashEmbeddings())
    writer.ingest([str(SAMPLE)], progress=False)
    schema = uri.rsplit("search_path%3D", 1)[1].split("%2C", 1)[0]
    role = f"reader_{uuid.uuid4().hex[:8]}"
    admin = uri.split("?", 1)[0] + "?sslmode=disable"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN")
        conn.execute(f"GRANT USAGE ON SCHEMA {schema} TO {role}")
        conn.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA {schema} TO {role}")
    try:
        reading = PostgresStore.open(
            uri.replace("://postgres@", f"://{role}@"),
            "shared",
            "test:hash",
            False,
            HashEmbeddings(),
        )
        question = "Kestrel battery restocking fee"
        assert reading.keyword_search(question, 3, Reader()) == writer.keyword_search(
            question, 3, Reader()
        )
        assert reading.vector_search(question, 3, reader=Reader())
        found = HybridRetriever(kb=reading, k=3).invoke(question)  # graph and facets too
        assert [d.id for d in found] == [
            d.id for d in HybridRetriever(kb=writer, k=3).invoke(question)
        ]
    finally:
        forget(role)
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP OWNED BY {role}")
            conn.execute(f"DROP ROLE {role}")


def test_a_database_that_cannot_be_reached_says_so_without_the_password() -> None:
    from adaptive_rag.knowledge.errors import KnowledgeBaseError

    uri = "postgresql://someone:s3cret-pass@127.0.0.1:1/nowhere"
    with pytest.raises(KnowledgeBaseError, match="cannot connect to PostgreSQL 127.0.0.1:1") as err:
        PostgresStore.open(uri, "x", "test:hash", True, HashEmbeddings())
    assert "s3cret-pass" not in str(err.value)


def test_a_load_into_an_empty_collection_indexes_the_vectors_once_at_its_end(
    pg_schemas: Any,
) -> None:
    pg = PostgresStore.open(pg_schemas.fresh(), "loaded", "test:hash", True, HashEmbeddings())
    index = f"{pg._t.chunks}_embedding_idx"

    def indexed() -> bool:
        return bool(pg._db.rows("SELECT to_regclass(%s) IS NOT NULL", (index,))[0][0])

    assert indexed()
    with pg.loading():
        pg.ingest([str(SAMPLE)], progress=False)
        assert not indexed()  # built once, at the end
        exact = pg.vector_search("restocking fee for returns", 5)
    assert indexed() and pg.vector_search("restocking fee for returns", 5) == exact
    with pg.loading():  # into a collection that holds chunks: indexed as it goes
        pg.ingest([str(SAMPLE / "company.md")], progress=False, owner="alice")
        assert indexed()
    with pg._db.connection() as conn:  # as a loader that died leaves it
        conn.execute(f"DROP INDEX {index}")
    assert pg.delete(str(SAMPLE / "company.md"), owner="alice") > 0
    assert indexed()  # the next write built it
