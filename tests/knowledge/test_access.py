"""Every search channel of the knowledge base returns only what its reader may read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from adaptive_rag.core.access import Reader
from adaptive_rag.knowledge.chroma.store import ChromaStore
from adaptive_rag.knowledge.interface import KnowledgeStore
from adaptive_rag.knowledge.retriever import HybridRetriever
from fake_sources import HashEmbeddings
from tenants import QUESTIONS, READERS, build_kb, leaks, seen


@pytest.fixture
def kb(tmp_path: Path, store: str) -> KnowledgeStore:
    return build_kb(tmp_path / "kb", tmp_path / "corpus")


@pytest.mark.parametrize("mode", ["hybrid", "vector", "keyword"])
@pytest.mark.parametrize("small_to_big", [False, True])
def test_no_channel_returns_a_document_its_reader_may_not_read(
    kb: KnowledgeStore, mode: str, small_to_big: bool
) -> None:
    for name, reader in READERS.items():
        visible: set[str] = set()
        for question in QUESTIONS:
            retriever = HybridRetriever(
                kb=kb,
                k=6,
                mode=mode,
                reader=reader,
                small_to_big=small_to_big,  # type: ignore[arg-type]
            )
            docs = retriever.invoke(question)
            dumped = [(d.page_content, d.metadata) for d in docs]
            assert not leaks(dumped, reader), (name, question)
            visible |= seen(dumped)
        # the searches do find the reader's own documents: the filter is not just empty results
        own = {"alice": "CANARY-ALICE-7Q2", "bob": "CANARY-FIN-8M1", "anonymous": "PUBLIC-KETTLE-1"}
        if name in own:
            assert own[name] in visible, (name, mode)


def test_keyword_channel_finds_a_tenants_document_however_many_others_outrank_it(
    kb: KnowledgeStore, tmp_path: Path
) -> None:
    # 60 public files that match the query better than bob's one document
    noise = tmp_path / "noise"
    noise.mkdir()
    for i in range(60):
        (noise / f"heron{i}.md").write_text(
            f"# Heron {i}\n\nHeron merger Heron merger Heron {i}.\n"
        )
    kb.ingest([str(noise)], progress=False)
    found = kb.keyword_search("Heron merger", 5, Reader("bob"))
    assert found and all(kb.get([cid])[0].metadata["owner"] in ("", "bob") for cid, _ in found)
    ids = {
        cid for cid, _ in kb.keyword_search("Heron merger Kestrel Labs code word", 3, Reader("bob"))
    }
    assert any("CANARY-BOB-3X9" in d.page_content for d in kb.get(sorted(ids)))


def test_the_same_name_for_another_owner_is_another_source(
    kb: KnowledgeStore, tmp_path: Path
) -> None:
    path = str(tmp_path / "corpus" / "bob" / "merger.md")
    report = kb.ingest([path], progress=False, owner="alice")
    assert report.added == [path]  # alice's own source of that name, beside bob's
    merger = [d for d in kb.get(_ids(kb)) if d.metadata["source"] == path]
    assert {d.metadata["owner"] for d in merger} == {"alice", "bob"}
    assert len({d.id for d in merger}) == len(merger)  # neither overwrote the other's chunks
    listed = [(s["source"], s["owner"]) for s in kb.sources() if s["source"] == path]
    assert listed == [(path, "alice"), (path, "bob")]
    assert [s["owner"] for s in kb.sources(Reader("bob")) if s["source"] == path] == ["bob"]
    assert kb.ingest([path], progress=False, owner="alice").unchanged == [path]
    assert kb.delete(path, owner="alice") > 0  # alice's copy goes; bob's stays
    bob_sees = HybridRetriever(kb=kb, k=6, reader=Reader("bob")).invoke(
        "Project Heron merger code word"
    )
    assert any("CANARY-BOB-3X9" in d.page_content for d in bob_sees)
    assert kb.delete(path) == 0  # no public source of that name


def test_the_same_file_for_two_owners_is_stored_for_both(
    kb: KnowledgeStore, tmp_path: Path
) -> None:
    twin = tmp_path / "copy" / "merger.md"
    twin.parent.mkdir()
    twin.write_bytes((tmp_path / "corpus" / "bob" / "merger.md").read_bytes())
    report = kb.ingest([str(twin)], progress=False, owner="dave")
    assert report.added == [str(twin)] and not report.duplicates
    dave = HybridRetriever(kb=kb, k=6, reader=Reader("dave")).invoke(
        "Project Heron merger code word"
    )
    assert any(d.metadata["source"] == str(twin) for d in dave)
    again = tmp_path / "copy2" / "merger.md"
    again.parent.mkdir()
    again.write_bytes(twin.read_bytes())
    assert kb.ingest([str(again)], progress=False, owner="dave").duplicates  # same readers: a twin


@pytest.mark.chroma
def test_a_knowledge_base_from_before_access_control_stays_readable_by_all(tmp_path: Path) -> None:
    kb = ChromaStore.open(
        str(tmp_path / "kb"), "old", "test:hash", create=True, embeddings=HashEmbeddings()
    )
    doc = tmp_path / "kettle.md"
    doc.write_text("# Kettle\n\nThe kettle holds 1.7 litres.\n")
    kb.ingest([str(doc)], progress=False)
    # make it look as an older version wrote it: no owner on chunks or sections, no marker
    for store in (kb._chunks, kb._parents):
        got = store.get(include=["metadatas"])
        store.update(
            ids=got["ids"], metadatas=[{"owner": None} for _ in got["ids"]]
        )  # None deletes
        got = store.get(include=["metadatas"])
        assert all("owner" not in m for m in got["metadatas"])
    collection = kb._client.get_collection("old", embedding_function=None)
    collection.modify(metadata={**collection.metadata, "access_control": None})
    assert not (kb._client.get_collection("old", embedding_function=None).metadata or {}).get(
        "access_control"
    )
    assert not HybridRetriever(kb=kb, reader=Reader()).invoke("kettle litres")  # unowned: unread
    reopened = ChromaStore.open(
        str(tmp_path / "kb"), "old", "test:hash", embeddings=HashEmbeddings()
    )
    docs = HybridRetriever(kb=reopened, reader=Reader()).invoke("kettle litres")
    assert docs and docs[0].metadata["owner"] == ""


def test_sources_say_who_may_read_them(kb: KnowledgeStore) -> None:
    readers = {Path(e["source"]).parent.name: (e["owner"], e["groups"]) for e in kb.sources()}
    assert readers["carol"] == ("carol", ["fin"]) and readers["public"] == ("", [])


def _ids(kb: KnowledgeStore) -> list[str]:
    return [c.id for c in kb.stored()]


@pytest.mark.parametrize("others", [0, 80])
def test_vector_search_filters_both_ways_a_small_share_and_a_large_one(
    kb: KnowledgeStore, tmp_path: Path, others: int
) -> None:
    # with 80 of zed's files alice may read under a tenth: Chroma filters; else over-fetching does
    noise = tmp_path / "zed"
    noise.mkdir()
    for i in range(others):
        (noise / f"z{i}.md").write_text(f"# Salary {i}\n\nAlice salary review base pay zed {i}.\n")
    if others:
        kb.ingest([str(noise)], progress=False, owner="zed")
    alice = Reader("alice")
    stored = list(kb.stored())
    share = sum(alice.may_read(c.metadata) for c in stored) / len(stored)
    assert (share < 0.1) == bool(others)
    found = kb.vector_search("Alice salary review base pay", 4, None, alice)
    docs = kb.get([cid for cid, _ in found])
    assert docs and all(d.metadata["owner"] in ("", "alice") for d in docs)
    assert any("CANARY-ALICE-7Q2" in d.page_content for d in docs)


def test_a_file_cannot_say_who_may_read_it(kb: KnowledgeStore, tmp_path: Path) -> None:
    lines = tmp_path / "rows.jsonl"
    row = {"text": "Payroll row CANARY-ROW-1.", "owner": "", "groups": ["hr"], "title": "Payroll"}
    lines.write_text(json.dumps(row) + "\n")
    kb.ingest([str(lines)], progress=False, owner="alice")
    stored = [c.metadata for c in kb.stored() if c.metadata["source"] == str(lines)]
    assert stored and all(m["owner"] == "alice" and "groups" not in m for m in stored)
    for reader in (Reader(), Reader("mallory", ("hr",))):
        docs = HybridRetriever(kb=kb, k=6, reader=reader).invoke("Payroll row")
        assert all("CANARY-ROW-1" not in d.page_content for d in docs)
