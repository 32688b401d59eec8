"""Store-neutral filters: equalities and a reader, as each store translates them."""

from __future__ import annotations

import chromadb
import pytest
from adaptive_rag.core.access import Reader
from adaptive_rag.knowledge.chroma.filters import chroma_where, reader_where
from adaptive_rag.knowledge.filters import matches
from adaptive_rag.knowledge.postgres.searching import containment
from readers import DOCS, READERS


@pytest.mark.parametrize("reader", READERS, ids=str)
def test_chroma_filter_agrees_with_the_rule(reader: Reader) -> None:
    client = chromadb.EphemeralClient()
    name = f"access-{abs(hash(reader))}"
    collection = client.create_collection(name, embedding_function=None)
    stored = {k: v for k, v in DOCS.items() if "owner" in v}  # the store backfills legacy ones
    collection.add(
        ids=list(stored), embeddings=[[1.0, 0.0]] * len(stored), metadatas=list(stored.values())
    )
    found = collection.get(where=reader_where(reader))["ids"]
    assert set(found) == {name for name, meta in stored.items() if reader.may_read(meta)}
    client.delete_collection(name)


def test_equalities_and_a_reader_become_one_chroma_where() -> None:
    assert chroma_where(None) is None and chroma_where({}, Reader(everyone=True)) is None
    assert chroma_where({"a": 1}) == {"a": 1}
    assert chroma_where({"a": 1, "b": "x"}) == {"$and": [{"a": 1}, {"b": "x"}]}
    assert chroma_where(None, Reader()) == {"owner": ""}
    assert chroma_where({"a": 1}, Reader("alice")) == {
        "$and": [{"a": 1}, {"$or": [{"owner": ""}, {"owner": "alice"}]}]
    }


def test_equalities_become_one_postgres_containment() -> None:
    assert containment(None) == {} and containment({}) == {}
    assert containment({"a": 1, "b": "x"}) == {"a": 1, "b": "x"}
    with pytest.raises(ValueError, match="only equality filters"):
        containment({"$and": [{"a": 1}]})
    with pytest.raises(ValueError, match="only equality filters"):
        containment({"a": {"$gt": 1}})


def test_a_chunk_matches_every_equality() -> None:
    assert matches({"a": 1, "b": "x"}, {"a": 1}) and matches({"a": 1}, None)
    assert not matches({"a": 1}, {"a": 1, "b": "x"})
