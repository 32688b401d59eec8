"""The knowledge graph: documents added, replaced, deleted and listed, each with its fate."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest
from adaptive_rag.graph.knowledge import build_knowledge_graph
from adaptive_rag.knowledge.interface import KnowledgeStore
from adaptive_rag.knowledge.opening import open_store
from adaptive_rag.nodes import write_documents
from adaptive_rag.schema.knowledge import KnowledgeContext
from fake_sources import HashEmbeddings

KETTLE = "# Zephyr X2\n\nThe Zephyr X2 kettle holds 1.7 litres and boils in four minutes."
LAMP = "The Aurora lamp uses 9 watts and lasts 25,000 hours."


@pytest.fixture
def graph(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, store: str) -> Any:
    monkeypatch.setenv("ADAPTIVE_RAG_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("CHROMA_HOST", raising=False)
    opened: dict[str, KnowledgeStore] = {}

    def open_kb(ctx: KnowledgeContext) -> KnowledgeStore:
        if ctx.collection not in opened:
            opened[ctx.collection] = open_store(
                str(tmp_path / "kb"),
                ctx.collection,
                "test:hash",
                create=True,
                embeddings=HashEmbeddings(),
            )
        return opened[ctx.collection]

    return build_knowledge_graph(open_kb)


def run(graph: Any, request: dict[str, Any], user: str = "", **configurable: Any) -> Any:
    config = {"configurable": configurable} if configurable else None
    return graph.invoke(request, config=config, context=KnowledgeContext(user=user))


def b64(text: str | bytes) -> str:
    data = text.encode() if isinstance(text, str) else text
    return base64.b64encode(data).decode()


def test_documents_are_added_replaced_and_deleted_each_with_its_fate(graph: Any) -> None:
    out = run(
        graph,
        {
            "documents": [
                {"name": "kettle.md", "content_base64": b64(KETTLE)},
                {"name": "lamp", "text": LAMP, "title": "Aurora lamp", "metadata": {"year": 2024}},
                {"name": "empty.txt", "text": "   "},
                {"name": "slides.pptx", "content_base64": b64(b"PK\x03\x04")},
                {"name": "broken", "content_base64": "not base64!"},
                {"name": "noise", "text": "\x00\x01\x02\x03" * 20},
            ]
        },
    )
    fate = {r["name"]: (r["status"], r["reason"]) for r in out["results"]}
    assert fate["kettle.md"] == ("added", "") and fate["lamp"] == ("added", "")
    assert fate["empty.txt"] == ("failed", "contains no text")
    assert fate["slides.pptx"][1].startswith("unsupported type .pptx")
    assert fate["broken"] == ("failed", "content_base64 is not valid base64")
    assert fate["noise"][1].startswith("looks like binary data")
    assert out["counts"] == {"added": 2, "failed": 4}
    listed = {s["source"]: s for s in out["sources"]}
    assert set(listed) == {"kettle.md", "lamp"} and listed["lamp"]["title"] == "Aurora lamp"
    first = out["revision"]
    again = run(graph, {"documents": [{"name": "lamp", "text": LAMP + " Now dimmable."}]})
    assert again["results"] == [{"name": "lamp", "status": "replaced", "reason": ""}]
    assert again["revision"] > first
    gone = run(graph, {"delete": ["lamp", "nowhere.md"]})
    assert [(r["name"], r["status"]) for r in gone["results"]] == [
        ("lamp", "deleted"),
        ("nowhere.md", "not_found"),
    ]
    assert [s["source"] for s in gone["sources"]] == ["kettle.md"]
    assert run(graph, {})["sources"] == gone["sources"]  # an empty request only lists


def test_progress_is_streamed_while_a_batch_embeds(graph: Any) -> None:
    request = {"documents": [{"name": f"doc{i}", "text": f"{LAMP} Model {i}."} for i in range(3)]}
    events = [
        e
        for e in graph.stream(request, stream_mode="custom", context=KnowledgeContext())
        if e.get("step") == "write_documents"
    ]
    assert events[0]["documents"] == 0 and events[0]["documents_total"] == 3
    assert events[-1]["documents"] == 3 and events[-1]["chunks"] == events[-1]["chunks_total"] > 0


def test_two_owners_keep_their_own_document_of_one_name(graph: Any) -> None:
    for user, text in (("alice", KETTLE), ("bob", LAMP)):
        out = run(graph, {"documents": [{"name": "notes.md", "text": text}]}, user=user)
        assert out["results"][0]["status"] == "added"
    alice = run(graph, {}, user="alice")["sources"]
    assert [(s["source"], s["owner"]) for s in alice] == [("notes.md", "alice")]
    assert run(graph, {"delete": ["notes.md"]}, user="bob")["results"][0]["status"] == "deleted"
    assert [s["owner"] for s in run(graph, {}, user="alice")["sources"]] == ["alice"]


ANONYMOUS = {"identity": "anonymous", "reader": "", "groups": []}


def test_a_server_without_authentication_takes_no_writes_unless_told(
    graph: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    request = {"documents": [{"name": "lamp", "text": LAMP}]}
    out = run(graph, request, langgraph_auth_user=ANONYMOUS)
    assert out["results"][0]["status"] == "refused"
    assert "ADAPTIVE_RAG_OPEN_WRITES=true" in out["results"][0]["reason"]
    assert out["sources"] == []
    monkeypatch.setenv("ADAPTIVE_RAG_OPEN_WRITES", "true")
    out = run(graph, request, langgraph_auth_user=ANONYMOUS)
    assert out["results"][0]["status"] == "added" and out["sources"][0]["owner"] == ""


def test_a_signed_in_writer_writes_their_own_and_public_ones_only_as_administrator(
    graph: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    bob = {"identity": "bob", "reader": "bob", "groups": ["sales"]}
    # the request's own user is ignored: the token says who writes
    out = run(
        graph, {"documents": [{"name": "n.md", "text": LAMP}]}, user="eve", langgraph_auth_user=bob
    )
    assert out["results"][0]["status"] == "added" and out["sources"][0]["owner"] == "bob"
    public = {"documents": [{"name": "p.md", "text": KETTLE}], "public": True}
    refused = run(graph, public, langgraph_auth_user=bob)["results"][0]
    assert refused["status"] == "refused" and "ADAPTIVE_RAG_KB_ADMINS" in refused["reason"]
    shared = {"documents": [{"name": "s.md", "text": KETTLE}], "share_with": ["hr"]}
    refused = run(graph, shared, langgraph_auth_user=bob)["results"][0]
    assert refused["status"] == "refused" and "hr" in refused["reason"]
    ok = {"documents": [{"name": "s.md", "text": KETTLE}], "share_with": ["sales"]}
    assert run(graph, ok, langgraph_auth_user=bob)["results"][0]["status"] == "added"
    monkeypatch.setenv("ADAPTIVE_RAG_KB_ADMINS", "sales")
    assert run(graph, public, langgraph_auth_user=bob)["results"][0]["status"] == "added"


def test_a_malformed_request_is_refused_whole_and_a_batch_over_the_limit_in_part(
    graph: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = run(graph, {"documents": [{"name": "a", "text": "x", "content_base64": "eA=="}]})
    assert out["error"] == "input.documents[0]: a: give exactly one of 'text' or 'content_base64'"
    assert out["results"] == []
    monkeypatch.setattr(write_documents, "MAX_DOCUMENTS", 2)
    docs = [{"name": f"d{i}", "text": f"{LAMP} {i}"} for i in range(3)]
    out = run(graph, {"documents": docs})
    assert [r["status"] for r in out["results"]] == ["added", "added", "failed"]
    assert "over the limit of 2 documents" in out["results"][2]["reason"]
