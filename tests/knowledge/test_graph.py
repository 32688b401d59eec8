"""The entity graph lives with the collection: built at ingest, kept by delete, walked per reader."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from adaptive_rag.core.access import Reader
from adaptive_rag.core.text import entities_of, key
from adaptive_rag.evaluation.data import read_jsonl
from adaptive_rag.knowledge.chroma.store import ChromaStore
from adaptive_rag.knowledge.retriever import HybridRetriever
from fake_sources import HashEmbeddings
from stores import ids_where

BRIDGE = Path(__file__).resolve().parents[1] / "data" / "bridge"
QUESTIONS = read_jsonl(BRIDGE / "questions.jsonl")


def graph_of(kb: ChromaStore) -> dict[str, list[str]]:
    """Return each chunk's entities as the graph holds them, by chunk id."""
    index = kb.derived_index()
    return {cid: sorted(index.graph.entities_of(i)) for i, cid in enumerate(index.ids)}


def chunk_of(kb: ChromaStore, doc_id: str) -> str:
    return ids_where(kb, doc_id=doc_id)[0]


def write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


@pytest.fixture
def bridge_kb(open_kb: Any) -> ChromaStore:
    kb: ChromaStore = open_kb("bridge")
    kb.ingest([str(BRIDGE / "corpus.jsonl")], progress=False)
    return kb


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q["id"])
def test_the_walk_reaches_the_bridge_document_through_the_bridge_entity(
    bridge_kb: ChromaStore, question: dict[str, Any]
) -> None:
    first, second = question["gold_doc_ids"]
    seed = chunk_of(bridge_kb, first)
    # four: the seed, the bridge, and the chunks that share a question's name ("远航三号" also
    # names the ship's catch; jieba tags the verb 长大 of the same question a place)
    reached = dict(
        bridge_kb.graph_search(entities_of(question["question"]), [(seed, 1.0)], 4, Reader())
    )
    assert list(reached)[0] == seed  # the walk returns to its seed most
    found = reached[chunk_of(bridge_kb, second)]  # then the bridge: with the question's names
    bridge = key(question["bridge_entity"])  # and it says which entity linked it (卢仲 of 卢仲和)
    assert any(bridge.startswith(e) or e.endswith(bridge) for e in found.entities)


def test_the_question_alone_seeds_the_walk_and_nothing_gives_nothing(
    bridge_kb: ChromaStore,
) -> None:
    question = QUESTIONS[0]["question"]  # names the Halden valve
    found = {
        bridge_kb.get([cid])[0].metadata["doc_id"]
        for cid, _ in bridge_kb.graph_search(entities_of(question), [], 5, Reader())
    }
    assert "en-halden-valve" in found
    assert bridge_kb.graph_search(entities_of("what is this?"), [], 5, Reader()) == []


def test_default_retrieval_finds_both_bridge_documents_where_search_alone_finds_none(
    bridge_kb: ChromaStore,
) -> None:
    both = {True: 0, False: 0}
    for question in QUESTIONS:
        for graph in (True, False):
            docs = HybridRetriever(kb=bridge_kb, k=4, graph=graph).invoke(question["question"])
            found = {d.metadata["doc_id"] for d in docs}
            both[graph] += set(question["gold_doc_ids"]) <= found
    # the second document shares no word with its question: only the entity brings it in;
    # with meaning-blind HashEmbeddings both channels rank the same lexical distractors high
    assert both[False] == 0 and both[True] >= 6


def test_each_chunk_says_which_channel_ranked_it_and_which_entities_linked_it(
    bridge_kb: ChromaStore,
) -> None:
    docs = HybridRetriever(kb=bridge_kb, k=6).invoke(QUESTIONS[0]["question"])
    bridge = next(d for d in docs if d.metadata["doc_id"] == "en-brevik")
    assert bridge.metadata["graph_rank"] > 0 and bridge.metadata["graph_score"] > 0
    assert "oskar brevik" in bridge.metadata["graph_entities"]
    assert not bridge.metadata["agreement"]  # agreement is keyword and vector only
    for doc in docs:  # a chunk the graph did not rank says so with zeros
        assert (doc.metadata["graph_rank"] == 0) == (doc.metadata["graph_score"] == 0)
    off = HybridRetriever(kb=bridge_kb, k=6, graph=False).invoke(QUESTIONS[0]["question"])
    assert all(d.metadata["graph_rank"] == 0 and not d.metadata["graph_entities"] for d in off)


@pytest.mark.chroma
def test_delete_leaves_no_edge_to_the_deleted_chunks(open_kb: Any, tmp_path: Path) -> None:
    folder = write(
        tmp_path / "docs",
        {
            "valve.md": "# Halden valve\n\nThe valve was patented by Oskar Brevik in Tofte.\n",
            "brevik.md": "# Oskar Brevik\n\nIn youth Oskar Brevik mended nets in Korrvik.\n",
            "museum.md": "# Tofte museum\n\nThe museum in Tofte shows the old foundry.\n",
        },
    )
    kb: ChromaStore = open_kb()
    kb.ingest([str(folder)], progress=False)
    gone = set(kb._chunks.get(where={"source": str(folder / "brevik.md")}, include=[])["ids"])
    assert gone and kb.delete(str(folder / "brevik.md"))
    index = kb.derived_index()
    graph = index.graph
    assert len(graph) == len(index.ids) == kb.count() and not gone & set(index.ids)
    assert graph.edges() == sum(len(graph.entities_of(i)) for i in range(len(graph)))
    assert int(graph.entity_chunks.max()) < len(index.ids)  # every edge ends at a stored chunk
    valve = kb._chunks.get(where={"source": str(folder / "valve.md")}, include=[])["ids"][0]
    reached = [
        cid
        for cid, _ in kb.graph_search(
            entities_of("What did he patent?"), [(valve, 1.0)], 10, Reader()
        )
    ]
    assert len(reached) > 1 and not gone & set(reached)  # Tofte links the museum; Brevik's gone


@pytest.mark.chroma
def test_reingesting_an_unchanged_file_changes_nothing(open_kb: Any, tmp_path: Path) -> None:
    kb: ChromaStore = open_kb("bridge")
    kb.ingest([str(BRIDGE / "corpus.jsonl")], progress=False)
    revision, graph = kb.revision(), graph_of(kb)
    arrays = kb.derived_index().graph.chunk_entities.copy()
    report = kb.ingest([str(BRIDGE / "corpus.jsonl")], progress=False)
    assert report.unchanged and report.chunks_added == report.chunks_removed == 0
    assert kb.revision() == revision and graph_of(kb) == graph
    assert np.array_equal(kb.derived_index().graph.chunk_entities, arrays)


@pytest.mark.chroma
def test_an_old_collection_gets_its_graph_on_open_without_re_embedding(
    bridge_kb: ChromaStore, tmp_path: Path
) -> None:
    expected = graph_of(bridge_kb)
    vectors = bridge_kb._chunks.get(include=["embeddings"])["embeddings"]
    # as an older version wrote it: no entities on the chunks, no marker on the collection
    ids = bridge_kb._chunks.get(include=[])["ids"]
    bridge_kb._chunks.update(ids=ids, metadatas=[{"entities": None} for _ in ids])
    collection = bridge_kb._client.get_collection("bridge", embedding_function=None)
    collection.modify(metadata={**collection.metadata, "entities": 0})
    bridge_kb._bump()
    assert not any(graph_of(bridge_kb).values())
    reopened = ChromaStore.open(
        str(tmp_path / "kb"), "bridge", "test:hash", embeddings=HashEmbeddings()
    )
    assert graph_of(reopened) == expected
    assert np.array_equal(reopened._chunks.get(include=["embeddings"])["embeddings"], vectors)
    first = QUESTIONS[0]
    seed = chunk_of(reopened, first["gold_doc_ids"][0])
    reached = reopened.graph_search(entities_of(first["question"]), [(seed, 1.0)], 3, Reader())
    assert chunk_of(reopened, first["gold_doc_ids"][1]) in dict(reached)


ACCESS = {
    # owner, groups, text: the public valve names Oskar Brevik and the Tofte foundry, which
    # link it to different chunks, and with different weights, for each reader
    "valve.md": (
        "",
        (),
        "# Halden valve\n\nThe Halden valve was patented by Oskar Brevik at the Tofte foundry.\n",
    ),
    "public.md": ("", (), "# Korrvik\n\nOskar Brevik was born in Korrvik, a fishing hamlet.\n"),
    "bob.md": ("bob", (), "# Notes\n\nOskar Brevik owes the Tofte foundry. CANARY-BOB-GRAPH.\n"),
    "fin.md": ("carol", ("fin",), "# Ledger\n\nOskar Brevik paid in full. CANARY-FIN-GRAPH.\n"),
}


def access_kb(open_kb: Any, folder: Path, names: list[str]) -> ChromaStore:
    kb: ChromaStore = open_kb(f"access-{len(names)}", path=folder / "kb")
    for name in names:
        owner, groups, text = ACCESS[name]
        path = write(folder / (owner or "public"), {name: text}) / name
        kb.ingest([str(path)], progress=False, owner=owner, groups=groups)
    return kb


@pytest.mark.parametrize(
    ("reader", "readable"),
    [
        (Reader(), ["valve.md", "public.md"]),
        (Reader("alice"), ["valve.md", "public.md"]),
        (Reader("bob"), ["valve.md", "public.md", "bob.md"]),
        (Reader("dave", ("fin",)), ["valve.md", "public.md", "fin.md"]),
    ],
)
def test_a_readers_walk_never_reaches_a_chunk_they_may_not_read(
    open_kb: Any, tmp_path: Path, reader: Reader, readable: list[str]
) -> None:
    everything = access_kb(open_kb, tmp_path / "all", list(ACCESS))
    only_theirs = access_kb(open_kb, tmp_path / "theirs", readable)
    question = "Where was the inventor of the Halden valve born?"
    walks = []
    for kb in (everything, only_theirs):
        seed = ids_where(kb, title="Halden valve")[0]
        reached = kb.graph_search(entities_of(question), [(seed, 1.0)], 10, reader)
        walks.append([(kb.get([cid])[0].page_content, r.score) for cid, r in reached])
        docs = HybridRetriever(kb=kb, k=6, reader=reader).invoke(question)
        assert all(reader.may_read(d.metadata) for d in docs)
    # what the reader cannot read changes neither what the walk finds nor how it scores it
    assert walks[0] == walks[1]
    assert len(walks[0]) == len(readable)  # the walk does find every chunk they may read


@pytest.mark.parametrize(
    "reader", [Reader(), Reader("alice"), Reader("bob"), Reader("dave", ("fin",))]
)
def test_a_hops_bridges_seed_a_readers_walk_only_through_what_they_may_read(
    open_kb: Any, tmp_path: Path, reader: Reader
) -> None:
    kb = access_kb(open_kb, tmp_path, list(ACCESS))
    query = "What else is on record?"  # no name: the walk starts from the bridge and the hits
    docs = HybridRetriever(kb=kb, k=6, reader=reader, bridges=("oskar brevik",)).invoke(query)
    assert all(reader.may_read(d.metadata) for d in docs)
    linked = [d for d in docs if "oskar brevik" in d.metadata["graph_entities"]]
    assert len(linked) == len([d for d in docs if "Oskar Brevik" in d.page_content]) > 0
