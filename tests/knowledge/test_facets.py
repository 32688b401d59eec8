"""Documents' own fields: read with their text, and searched within when a question names them."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from adaptive_rag.core.access import Reader
from adaptive_rag.knowledge import facets as facet_search
from adaptive_rag.knowledge.chroma.derived import DerivedIndex
from adaptive_rag.knowledge.chroma.searching import ChromaSearching
from adaptive_rag.knowledge.chroma.store import ChromaStore
from adaptive_rag.knowledge.chunking import index_text
from adaptive_rag.knowledge.facets import FacetIndex, dates_in, descriptive, header
from adaptive_rag.knowledge.postgres.searching import PostgresSearching
from adaptive_rag.knowledge.retriever import HybridRetriever
from adaptive_rag.schema.reading import links_of
from langchain_core.documents import Document
from stores import ids_where

NEWS = "Fusion startup Heliora raised money for a reactor, the report on the round says."


def test_a_document_describes_itself_by_its_own_short_text_fields() -> None:
    meta = {
        "source": "/kb/news.jsonl",  # the knowledge base's own keys are never facets
        "title": "A title",
        "position": 3,
        "doc_id": "n-1",
        "story_id": "s-9",
        "url": "https://example.com/a",
        "link": "https://example.com/b",
        "summary": "word " * 40,  # a sentence, not a name
        "publisher": "The  Verge",
        "published_at": "2023-09-26T17:01:22+00:00",
        "words": 512,
    }
    assert descriptive(meta) == [("published_at", "2023-09-26"), ("publisher", "The Verge")]
    assert header(meta) == "2023-09-26 (September 26, 2023) · The Verge"
    doc = Document(page_content="Body.", metadata=meta)
    assert index_text(doc) == "A title\n2023-09-26 (September 26, 2023) · The Verge\nBody."
    assert index_text(doc, described=False) == "A title\nBody."


def test_dates_are_read_in_the_forms_people_write_them() -> None:
    text = (
        "From 2023-11-24 to November 25, 2023, then 3rd Dec 2023 and 2024年1月5日; not 2023-02-30."
    )
    assert dates_in(text) == {"2023-11-24", "2023-11-25", "2023-12-03", "2024-01-05"}
    more = "sept. 5, 2023, 2023/11/7, 9 MAY 2024 and 2024年2月3号"
    assert dates_in(more) == {"2023-09-05", "2023-11-07", "2024-05-09", "2024-02-03"}
    assert dates_in("on October 1st, or in 12023-11-24, or Mayday 5, 2023") == set()


def _index(*metas: dict[str, Any]) -> FacetIndex:
    return FacetIndex.build(list(metas))


def test_a_question_names_values_as_written_longest_first() -> None:
    index = _index(
        {"publisher": "The Sydney Morning Herald"},
        {"publisher": "Herald"},
        {"publisher": "Wired"},
        {"publisher": "TechCrunch"},
        {"publisher": "Fortune"},
        {"publisher": "The Age"},
    )
    named = index.named("Did 'The Sydney Morning Herald' and TechCrunch agree with The Age?")
    assert [v.value for v in named] == ["The Sydney Morning Herald", "TechCrunch", "The Age"]
    assert index.named("Was the wired connection faster? Misfortune?") == []  # case, whole words
    topics = _index({"category": "technology"}, {"category": "sports"}, {"category": "5G"})
    assert [v.value for v in topics.named("Which sports technology uses 5G?")] == ["5G"]
    (value,) = index.named("What did Wired say?")
    assert value.label == "publisher: Wired" and list(value.positions) == [2]
    marked = _index({"publisher": "Yahoo! News"}, {"publisher": "Yahoo"}, {"publisher": "Fox"})
    assert [v.value for v in marked.named("Did Yahoo! News report it?")] == ["Yahoo! News"]


def test_values_sharing_a_first_word_are_told_apart_by_their_second() -> None:
    index = _index(*({"author": f"Author {i}"} for i in range(300)))
    assert [v.value for v in index.named("What did Author 17 and Author 205 write?")] == [
        "Author 205",
        "Author 17",
    ]
    assert max(len(pairs) for pairs in index._by_start.values()) == 1


def test_dates_match_however_written_whatever_the_stored_time() -> None:
    index = _index(
        {"published_at": "2023-11-24T15:42:21+00:00"},
        {"published_at": "2023-11-24T09:00:00+00:00"},
        {"published_at": "2023-11-25T00:00:29+00:00"},
        {"published_at": "2023-10-02T00:00:00+00:00"},
        {"published_at": "2023-10-03T00:00:00+00:00"},
    )
    (value,) = index.named("What did the report of November 24, 2023 say?")
    assert value.value == "2023-11-24" and sorted(value.positions) == [0, 1]


def test_chinese_values_common_values_and_the_cap() -> None:
    index = _index(*({"来源": "新华社"} for _ in range(2)), *({"来源": "人民网"} for _ in range(3)))
    assert [v.value for v in index.named("新华社报道了什么？")] == ["新华社"]
    marked = _index({"来源": "《人民日报》"}, {"来源": "新华社"}, {"来源": "路透社"})
    assert [v.value for v in marked.named("《人民日报》怎么说？")] == ["《人民日报》"]
    mixed = _index({"来源": "新华社"}, {"来源": "Reuters"}, {"来源": "路透社"}, {"来源": "AP"})
    named = mixed.named("新华社和Reuters报道了什么？")  # scripts meet without a space
    assert sorted(v.value for v in named) == ["Reuters", "新华社"]
    assert index.named("人民网报道了什么？") == []  # held by most chunks: narrows nothing
    many = _index(*({"author": f"Writer{i}"} for i in range(10)))
    question = " ".join(f"Writer{i}" for i in range(10))
    assert len(many.named(question)) == 4


def test_only_values_a_question_can_name_are_indexed() -> None:
    days = [{"published_at": f"2023-11-24T{h:02d}:00:00+00:00"} for h in range(24)] * 2
    index = _index(*days, *({"category": "tech", "desk": f"D{i}"} for i in range(60)))
    assert set(index.values) == {"published_at", "desk"}  # no lower-case words
    (day,) = index.named("What happened on 24 November 2023?")
    assert len(day.positions) == 48


def test_facets_are_saved_with_the_index_and_an_index_without_them_is_rebuilt(
    tmp_path: Path,
) -> None:
    facets = _index({"publisher": "Wired"}, {"publisher": "Fortune"})
    index = DerivedIndex.build(["a", "b"], ["one", "two"], "7", [{}, {}], facets=facets)
    index.save(tmp_path / "bm25")
    loaded = DerivedIndex.load(tmp_path / "bm25")
    assert loaded is not None and loaded.facets.values == facets.values
    meta = json.loads((tmp_path / "bm25" / "meta.json").read_text())
    del meta["facets"]
    (tmp_path / "bm25" / "meta.json").write_text(json.dumps(meta))
    assert DerivedIndex.load(tmp_path / "bm25") is None
    meta["facets"] = {"values": {"publisher": {"Wired": {"at": [0], "raw": []}}}, "size": 2}
    (tmp_path / "bm25" / "meta.json").write_text(json.dumps(meta))
    assert DerivedIndex.load(tmp_path / "bm25") is None  # positions in an older form: rebuilt


def _news(folder: Path) -> Path:
    """Eight look-alike stories by four publishers: only the publisher tells them apart."""
    folder.mkdir(parents=True, exist_ok=True)
    rows = [
        {"text": f"{NEWS} Item {i}.", "title": f"Item {i}", "source": pub, "doc_id": f"n-{i}"}
        for i, pub in enumerate(["Wired", "Fortune", "The Age", "Polygon"] * 2)
    ]
    rows.append(
        {"text": "Heliora reactor round report: fusion startup raised money.", "title": "x"}
    )
    path = folder / "news.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows))
    return path


@pytest.fixture(params=["among its chunks", "among the nearest"])
def exact_within(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Search within a value among all its chunks, or (as for a large value) the nearest.

    Returns the depths the vector searches were asked for.
    """
    depths: list[int] = []
    for store in (ChromaSearching, PostgresSearching):

        def vector_search(
            self: Any,
            query: str,
            n: int,
            *args: Any,
            searched: Any = store.vector_search,
            **kw: Any,
        ) -> Any:
            depths.append(n)
            return searched(self, query, n, *args, **kw)

        monkeypatch.setattr(store, "vector_search", vector_search)
    if request.param == "among the nearest":
        monkeypatch.setattr(facet_search, "EXACT_WITHIN", 0)
        monkeypatch.setattr(facet_search, "NEAREST_WITHIN", 7)
    return depths


def test_a_question_naming_publishers_finds_each_publishers_story(
    open_kb: Any, tmp_path: Path, exact_within: list[int]
) -> None:
    kb: ChromaStore = open_kb()
    kb.ingest([str(_news(tmp_path))], progress=False)
    stored = kb.get(ids_where(kb, doc_id="n-2"))[0]
    assert stored.metadata["doc_source"] == "The Age"  # a record's `source` is kept beside ours
    assert stored.metadata["source"].endswith("news.jsonl")
    question = "Did Polygon and Fortune both report that Heliora raised money for a reactor?"
    docs = HybridRetriever(kb=kb, k=3, fetch_k=5).invoke(question)
    assert exact_within == [5 if facet_search.EXACT_WITHIN else 7]  # deeper only for a large value
    assert {d.metadata.get("doc_source") for d in docs[:3]} >= {"Polygon", "Fortune"}
    named = {d.metadata["named_value"] for d in docs if d.metadata["facet_rank"]}
    assert named <= {"doc_source: Polygon", "doc_source: Fortune"} and named
    why = {link["within"] for link in links_of(docs) if link["within"]}
    assert why == named  # diagnostics say which named value brought each in
    plain = HybridRetriever(kb=kb, k=3).invoke("Did Heliora raise money for a reactor?")
    assert all(d.metadata["facet_rank"] == 0 and not d.metadata["named_value"] for d in plain)


def test_a_search_within_a_named_value_keeps_to_what_the_reader_may_read(
    open_kb: Any, tmp_path: Path, exact_within: list[int]
) -> None:
    kb: ChromaStore = open_kb()
    path = _news(tmp_path / "public")
    kb.ingest([str(path)], progress=False)
    secret = tmp_path / "secret" / "news.jsonl"
    secret.parent.mkdir()
    secret.write_text(json.dumps({"text": NEWS + " Secret.", "source": "Polygon"}))
    kb.ingest([str(secret)], progress=False, owner="alice")
    question = "What did Polygon report about Heliora's reactor?"
    for reader, sees in ((Reader(user="bob"), False), (Reader(user="alice"), True)):
        docs = HybridRetriever(kb=kb, k=10, reader=reader).invoke(question)
        assert any(d.metadata["source"] == str(secret) for d in docs) is sees
    # the searches within themselves, before the retriever's last check of who may read
    (polygon,) = kb.named_values(question)
    hidden = set(ids_where(kb, owner="alice"))
    vector = kb.embed_query(question)
    for reader, sees in ((Reader(user="bob"), False), (Reader(user="alice"), True)):
        nearest = kb.vector_search(question, 50, None, reader, vector)
        (by_meaning,) = kb.vector_search_within(vector, 10, [polygon], nearest, reader)
        (by_words,) = kb.keyword_search_within(question, 10, reader, [polygon])
        for found in (by_meaning, by_words):
            assert found and bool({cid for cid, _ in found} & hidden) is sees
    if facet_search.EXACT_WITHIN:  # a metadata filter holds among a small value's chunks too
        (titled,) = kb.vector_search_within(
            vector, 10, [polygon], [], Reader(), {"title": "Item 3"}
        )
        assert [kb.get([cid])[0].metadata["title"] for cid, _ in titled] == ["Item 3"]


@pytest.mark.parametrize("mode", ["vector", "keyword"])
def test_one_channel_modes_search_within_named_values_by_that_channel(
    open_kb: Any, tmp_path: Path, mode: str
) -> None:
    kb: ChromaStore = open_kb()
    kb.ingest([str(_news(tmp_path))], progress=False)
    docs = HybridRetriever(kb=kb, k=2, mode=mode).invoke("What did Polygon say about Heliora?")
    assert any(d.metadata.get("doc_source") == "Polygon" for d in docs)


def test_the_question_is_embedded_once_and_a_failed_embedding_leaves_keyword_searches(
    open_kb: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kb: ChromaStore = open_kb()
    kb.ingest([str(_news(tmp_path))], progress=False)
    asked: list[str] = []
    embed = kb._embeddings.embed_query

    def counted(text: str) -> list[float]:
        asked.append(text)
        return embed(text)

    monkeypatch.setattr(kb._embeddings, "embed_query", counted)
    question = "Did Polygon and Fortune both report that Heliora raised money?"
    HybridRetriever(kb=kb, k=4).invoke(question)
    assert asked == [question]  # two named values, one embedding

    def down(text: str) -> list[float]:
        asked.append(text)
        raise ConnectionError("embedding service unreachable")

    monkeypatch.setattr(kb._embeddings, "embed_query", down)
    asked.clear()
    docs = HybridRetriever(kb=kb, k=4).invoke(question)
    assert len(asked) == 1 and {"Polygon", "Fortune"} <= {d.metadata["doc_source"] for d in docs}
    assert docs[0].metadata["degraded"].endswith("; used the other search alone")


@pytest.mark.chroma
def test_a_failed_search_within_is_noted_as_such_and_stale_positions_are_not_searched(
    open_kb: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kb: ChromaStore = open_kb()
    kb.ingest([str(_news(tmp_path))], progress=False)
    (value,) = kb.named_values("What did Polygon say?")
    stale = replace(value, revision="0")
    fresh, old = kb.keyword_search_within("Heliora", 5, Reader(), [value, stale])
    assert len(fresh) == 2 and old == []  # Polygon's two stories; stale positions: nothing
    vector = kb.embed_query("Heliora")
    fresh, old = kb.vector_search_within(vector, 5, [value, stale], [], Reader())
    assert len(fresh) == 2 and old == []

    def broken(question: str) -> list[Any]:
        raise RuntimeError("facet index unreadable")

    monkeypatch.setattr(kb, "named_values", broken)
    docs = HybridRetriever(kb=kb, k=4).invoke("What did Polygon say about Heliora?")
    assert docs and docs[0].metadata["degraded"] == (
        "search within named values failed (RuntimeError: facet index unreadable)"
    )
