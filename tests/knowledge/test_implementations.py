"""Each store implements every method its halves leave to it (knowledge.ingest, each store's
mixins): a method left out fails when the class is made, not when a user first calls it."""

from __future__ import annotations

import pytest
from adaptive_rag.knowledge.chroma.store import ChromaStore
from adaptive_rag.knowledge.postgres.store import PostgresStore


@pytest.mark.parametrize("store", [ChromaStore, PostgresStore])
def test_a_store_leaves_no_method_unimplemented(store: type) -> None:
    assert store.__abstractmethods__ == frozenset()
