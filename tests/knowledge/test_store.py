"""Ingestion, updates, deletes and BM25 consistency, on a real Chroma in a temp dir."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from adaptive_rag.knowledge.chroma.store import ChromaStore
from adaptive_rag.knowledge.errors import KnowledgeBaseError
from adaptive_rag.knowledge.retriever import HybridRetriever
from fake_sources import SAMPLE


def copy_sample(tmp_path: Path) -> Path:
    target = tmp_path / "docs"
    shutil.copytree(SAMPLE, target)
    return target


def test_ingest_is_idempotent_and_counts_add_up(open_kb: Any, tmp_path: Path) -> None:
    docs = copy_sample(tmp_path)
    kb = open_kb()
    first = kb.ingest([str(docs)], progress=False)
    assert len(first.added) == 8 and not first.failed and first.chunks_added == kb.count() > 8
    second = kb.ingest([str(docs)], progress=False)
    assert len(second.unchanged) == 8 and second.chunks_added == 0
    assert kb.count() == first.chunks_added


def test_chunks_carry_source_title_section_position_and_parent(
    open_kb: Any, tmp_path: Path
) -> None:
    kb = open_kb()
    kb.ingest([str(copy_sample(tmp_path) / "products" / "kestrel-k2.md")], progress=False)
    found = HybridRetriever(kb=kb, k=1).invoke("battery AA lithium cells months")
    meta = found[0].metadata
    assert meta["title"] == "Kestrel K2 sensor"
    assert meta["section"] == "Kestrel K2 sensor > Battery and radio"
    assert meta["source"].endswith("kestrel-k2.md") and isinstance(meta["position"], int)
    section = kb.parents([meta["parent_id"]])[meta["parent_id"]]
    assert section.startswith("Kestrel K2 sensor > Battery and radio\n") and "14 months" in section


def test_a_changed_file_replaces_its_old_chunks(open_kb: Any, tmp_path: Path) -> None:
    docs = copy_sample(tmp_path)
    kb = open_kb()
    kb.ingest([str(docs)], progress=False)
    before = kb.count()
    returns = docs / "policies" / "returns.md"
    returns.write_text("# Returns\n\nReturns are accepted within 60 days. No restocking fee.\n")
    report = kb.ingest([str(docs)], progress=False)
    assert report.replaced == [str(returns.resolve())] and len(report.unchanged) == 7
    hits = HybridRetriever(kb=kb, k=2, mode="keyword").invoke("restocking fee days")
    assert "60 days" in hits[0].page_content
    assert all("45 days of delivery" not in h.page_content for h in hits)
    assert kb.count() == before - report.chunks_removed + report.chunks_added


def test_delete_and_list(open_kb: Any, tmp_path: Path) -> None:
    docs = copy_sample(tmp_path)
    kb = open_kb()
    kb.ingest([str(docs)], progress=False)
    sources = {e["source"] for e in kb.sources()}
    warranty = str((docs / "policies" / "warranty.md").resolve())
    assert warranty in sources and len(sources) == 8
    removed = kb.delete(warranty)
    assert removed > 0 and warranty not in {e["source"] for e in kb.sources()}
    assert kb.delete(warranty) == 0
    hits = HybridRetriever(kb=kb, k=5, mode="keyword").invoke("warranty three-year")
    assert all(h.metadata["source"] != warranty for h in hits)  # BM25 followed the delete


def test_bad_files_are_reported_by_name_and_the_rest_ingested(open_kb: Any, tmp_path: Path) -> None:
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "good.md").write_text("# Good\n\nThe Zephyr kettle boils water in three minutes.\n")
    (folder / "empty.txt").write_text("   \n")
    (folder / "latin1.txt").write_bytes("caf\xe9 cr\xe8me".encode("latin-1"))
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4 this is not really a pdf")
    (folder / "bad.jsonl").write_text('{"text": "ok"}\nnot json\n')
    kb = open_kb()
    report = kb.ingest([str(folder), str(tmp_path / "missing.md")], progress=False)
    assert report.added == [str((folder / "good.md").resolve())]
    failed = "\n".join(report.failed)
    for name in ("empty.txt", "latin1.txt", "broken.pdf", "bad.jsonl:2", "missing.md"):
        assert name in failed, name
    assert "no text" in failed and "not UTF-8" in failed and "not JSON" in failed


def test_embedding_model_mismatch_is_a_clear_error(open_kb: Any, tmp_path: Path) -> None:
    open_kb().ingest([str(copy_sample(tmp_path) / "company.md")], progress=False)
    with pytest.raises(KnowledgeBaseError, match="built with embeddings 'test:hash'"):
        open_kb(create=False, embedding_model="local:use-m3")


def test_missing_collection_says_how_to_create_it(tmp_path: Path) -> None:
    with pytest.raises(KnowledgeBaseError, match="adaptive-rag ingest"):
        ChromaStore.open(str(tmp_path / "kb"), "nothing-here", "test:hash")


def test_an_empty_collection_is_said_to_be_empty(open_kb: Any) -> None:
    open_kb("empty")  # created, nothing ingested
    with pytest.raises(KnowledgeBaseError, match="'empty' .* is empty: add documents first"):
        open_kb("empty", create=False)


def test_every_entry_point_shares_one_default_collection(
    open_kb: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from adaptive_rag.schema.context import Context

    assert Context().collection == "default"
    assert open_kb("").name == "default"
    monkeypatch.setenv("ADAPTIVE_RAG_COLLECTION", "handbook")
    assert Context().collection == "handbook" and open_kb("").name == "handbook"
    with pytest.raises(ValueError, match="collection"):
        Context(collection=" ")  # a blank one given on purpose is refused, not defaulted


@pytest.mark.chroma
def test_bm25_index_persists_and_is_rebuilt_when_another_process_writes(
    open_kb: Any, tmp_path: Path
) -> None:
    docs = copy_sample(tmp_path)
    writer = open_kb()
    writer.ingest([str(docs / "company.md")], progress=False)
    reader = open_kb(create=False)
    assert reader.keyword_search("Tromsø founded", 3)
    assert (tmp_path / "kb" / "bm25" / "test" / "meta.json").exists()
    writer.ingest([str(docs / "policies" / "returns.md")], progress=False)
    assert any(
        "returns.md" in d.metadata["source"]
        for d in reader.get([cid for cid, _ in reader.keyword_search("restocking fee", 3)])
    )


def test_chinese_documents_are_searchable_by_keyword(open_kb: Any, tmp_path: Path) -> None:
    kb = open_kb()
    kb.ingest([str(copy_sample(tmp_path) / "zh")], progress=False)
    hits = HybridRetriever(kb=kb, k=1, mode="keyword").invoke("售后热线")
    assert "400-820-4677" in hits[0].page_content


@pytest.mark.chroma
def test_whole_collection_reads_are_paged(
    open_kb: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from adaptive_rag.knowledge.chroma import upgrade

    monkeypatch.setattr(upgrade, "PAGE", 4)  # force several pages on a small collection
    kb = open_kb()
    kb.ingest([str(copy_sample(tmp_path))], progress=False)
    assert sum(e["chunks"] for e in kb.sources()) == kb.count() > 8
    assert len(kb.derived_index().ids) == kb.count()


@pytest.mark.chroma
def test_a_write_whose_revision_count_was_lost_still_refreshes_keyword_search(
    open_kb: Any, tmp_path: Path
) -> None:
    """Writers on two machines sharing a server can both count revision r+1: the token differs."""
    docs = copy_sample(tmp_path)
    open_kb().ingest([str(docs / "company.md")], progress=False)
    reader = open_kb(create=False)
    counted = reader.revision()
    assert reader.keyword_search("Tromsø founded", 3)
    open_kb().ingest([str(docs / "policies" / "returns.md")], progress=False)
    collection = reader._client.get_collection("test", embedding_function=None)
    collection.modify(metadata={**collection.metadata, "revision": counted})  # the count lost
    assert reader.revision() == counted
    found = reader.get([cid for cid, _ in reader.keyword_search("restocking fee", 3)])
    assert any("returns.md" in d.metadata["source"] for d in found)


def test_stored_reads_every_chunk_in_pages_with_its_vector_when_asked(
    open_kb: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from adaptive_rag.knowledge.chroma import upgrade

    kb = open_kb()
    kb.ingest([str(copy_sample(tmp_path))], progress=False)
    monkeypatch.setattr(upgrade, "PAGE", 3)  # several pages, the last one short
    chunks = list(kb.stored())
    assert len(chunks) == kb.count() > 3 and len({c.id for c in chunks}) == kb.count()
    first = kb.get([chunks[0].id])[0]
    assert (chunks[0].text, chunks[0].metadata) == (first.page_content, first.metadata)
    assert all(c.vector is None for c in chunks)
    with_vectors = list(kb.stored(vectors=True))
    size = len(kb.embed_query("kettle"))
    assert [c.id for c in with_vectors] == [c.id for c in chunks]
    assert all(c.vector is not None and len(c.vector) == size for c in with_vectors)


def test_the_old_name_opens_the_chroma_store_with_a_warning(tmp_path: Path) -> None:
    from fake_sources import HashEmbeddings

    with pytest.deprecated_call():
        from adaptive_rag.knowledge.store import KnowledgeBase
    assert KnowledgeBase is ChromaStore
    kb = KnowledgeBase.open(str(tmp_path), "old", "test:hash", True, HashEmbeddings())
    assert isinstance(kb, ChromaStore) and kb.count() == 0
