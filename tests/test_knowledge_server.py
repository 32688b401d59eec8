"""The knowledge graph over HTTP: two servers, one knowledge base, two owners.

Server A takes the writes through the SDK; server B (another process on the same data folder, or
the same PostgreSQL database) answers from them in its first run after the write returns.
Authentication is on: who writes is the token's subject, never the request's. The servers are
two `langgraph dev` processes (Chroma, PostgreSQL), or two Aegra processes on one PostgreSQL and
Redis (tests/aegra.py), A executing no runs, so every run it takes is executed by B.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from aegra import SECRET, bearer, deployment
from langgraph_sdk import get_sync_client
from servers import ROOT, langgraph_dev
from stores import STORES, Schemas, server_uri

pytestmark = pytest.mark.server

MODULE = ROOT / "tests" / "server_graph.py"
CANARY = "The Heron project code word is LAPWING-7Q."


@pytest.fixture(scope="module", params=[*STORES, "aegra"])
def servers(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[tuple[str, str]]:
    """Two servers on one knowledge base: one data folder (Chroma), or one database."""
    work = tmp_path_factory.mktemp("knowledge")
    env = {"ADAPTIVE_RAG_AUTH_SECRET": SECRET, "SHARED_KB": str(work / "kb"), "KNOWLEDGE_URI": ""}
    schemas = Schemas(server_uri()) if request.param in ("postgres", "aegra") else None
    if schemas is not None:
        env["KNOWLEDGE_URI"] = schemas.fresh()
    graphs = {"knowledge": f"{MODULE}:knowledge_graph", "shared": f"{MODULE}:shared_graph"}
    (work / "a").mkdir()
    (work / "b").mkdir()
    try:
        if request.param == "aegra":
            with deployment(work / "a", graphs, env=env) as (a, b):
                yield a.url, b.url
        else:
            with langgraph_dev(work / "a", graphs, env=env) as (a_url, _):
                with langgraph_dev(work / "b", graphs, env=env) as (b_url, _):
                    yield a_url, b_url
    finally:
        if schemas is not None:
            schemas.close()


def write(url: str, user: str, request: dict[str, Any]) -> dict[str, Any]:
    client = get_sync_client(url=url, headers=bearer(user))
    return dict(client.runs.wait(None, "knowledge", input=request))  # type: ignore[arg-type]


def ask(url: str, user: str, question: str) -> dict[str, Any]:
    client = get_sync_client(url=url, headers=bearer(user))
    return dict(client.runs.wait(None, "shared", input={"question": question}))  # type: ignore[arg-type]


def test_a_document_written_on_one_server_is_answered_from_on_the_other(
    servers: tuple[str, str],
) -> None:
    a, b = servers
    client = get_sync_client(url=a, headers=bearer("alice"))
    request = {"documents": [{"name": "heron.md", "text": f"# Heron\n\n{CANARY}"}]}
    parts = list(
        client.runs.stream(None, "knowledge", input=request, stream_mode=["custom", "values"])
    )
    progress = [p.data for p in parts if p.event == "custom"]
    assert progress[0]["documents_total"] == 1 and progress[-1]["documents"] == 1
    final = [p.data for p in parts if p.event == "values"][-1]
    assert final["results"] == [{"name": "heron.md", "status": "added", "reason": ""}]
    assert [(s["source"], s["owner"]) for s in final["sources"]] == [("heron.md", "alice")]
    out = ask(b, "alice", "What is the Heron project code word?")
    assert "LAPWING-7Q" in out["answer"]
    assert any(s.get("source") == "heron.md" for s in out["sources"])
    assert "LAPWING-7Q" not in ask(b, "bob", "What is the Heron project code word?")["answer"]


def test_two_owners_keep_their_own_document_of_one_name(servers: tuple[str, str]) -> None:
    a, b = servers
    for user in ("carol", "dave"):
        note = {"name": "notes.md", "text": f"{user.title()} keeps the spare keys in drawer 4."}
        assert write(a, user, {"documents": [note]})["results"][0]["status"] == "added"
    for user in ("carol", "dave"):
        listed = write(b, user, {})["sources"]
        assert [(s["source"], s["owner"]) for s in listed] == [("notes.md", user)]
    gone = write(b, "dave", {"delete": ["notes.md", "heron.md"]})["results"]
    assert [(r["name"], r["status"]) for r in gone] == [
        ("notes.md", "deleted"),
        ("heron.md", "not_found"),  # alice's: dave deletes only his own
    ]
    assert [s["owner"] for s in write(a, "carol", {})["sources"]] == ["carol"]
    assert [s["source"] for s in write(a, "alice", {})["sources"]] == ["heron.md"]


def test_the_request_cannot_say_who_writes_and_public_ones_need_an_administrator(
    servers: tuple[str, str],
) -> None:
    a, _ = servers
    client = get_sync_client(url=a, headers=bearer("erin"))
    out = client.runs.wait(
        None,
        "knowledge",
        input={"documents": [{"name": "e.md", "text": "Erin's note."}]},
        context={"user": "alice"},
    )
    assert out["sources"][0]["owner"] == "erin"  # type: ignore[index]
    public = write(a, "erin", {"documents": [{"name": "p.md", "text": "x y z"}], "public": True})
    assert public["results"][0]["status"] == "refused"


def test_a_malformed_request_is_a_422_and_starts_no_run(servers: tuple[str, str]) -> None:
    a, _ = servers
    body = {"assistant_id": "knowledge", "input": {"documents": [{"text": "no name"}]}}
    response = httpx.post(f"{a}/runs/wait", json=body, headers=bearer("alice"), timeout=30)
    assert response.status_code == 422
    assert "a document needs a non-empty 'name'" in response.json()["detail"]


def test_an_mcp_host_lists_both_graphs_writes_a_document_and_asks_the_agent(
    servers: tuple[str, str], request: pytest.FixtureRequest
) -> None:
    """The official `mcp` client over langgraph-api's /mcp: each graph is a tool, the same rules."""
    import asyncio

    if "aegra" in request.node.callspec.id:
        pytest.skip("Aegra serves no /mcp: MCP stays on langgraph-api (docs/deploy.md)")

    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    a, b = servers

    def tool_of(url: str, graph: str) -> str:
        """The tool name MCP gives a graph: its assistant's name, as the server shows it."""
        sdk = get_sync_client(url=url, headers=bearer("frank"))
        (assistant,) = sdk.assistants.search(graph_id=graph, limit=1)
        return str(assistant["name"])

    async def session_calls(url: str, user: str, calls: list[tuple[str, dict[str, Any]]]) -> Any:
        client = create_mcp_http_client(headers=bearer(user))
        async with client, streamable_http_client(f"{url}/mcp", http_client=client) as streams:
            read, write_stream = streams[0], streams[1]
            async with ClientSession(read, write_stream) as session:
                await session.initialize()
                listed = {t.title or t.name: t.name for t in (await session.list_tools()).tools}
                assert all(tool_of(url, g) in listed for g in ("knowledge", "shared")), listed
                names = {graph: listed[tool_of(url, graph)] for graph in ("knowledge", "shared")}
                results = [await session.call_tool(names[g], args) for g, args in calls]
                return listed, results

    note = {"name": "mcp.md", "text": "The MCP canary word is OSPREY-4K."}
    tools, (written,) = asyncio.run(
        session_calls(a, "frank", [("knowledge", {"documents": [note]})])
    )
    assert len(tools) >= 2  # both graphs are tools (session_calls found each by its title)
    assert not written.is_error and "'status': 'added'" in written.content[0].text
    assert "'owner': 'frank'" in written.content[0].text
    _, (answer, refused) = asyncio.run(
        session_calls(
            b,
            "frank",
            [
                ("shared", {"question": "What is the MCP canary word?"}),
                ("knowledge", {"documents": [{"name": "p.md", "text": "x y"}], "public": True}),
            ],
        )
    )
    assert "OSPREY-4K" in answer.content[0].text and "mcp.md" in answer.content[0].text
    assert "'status': 'refused'" in refused.content[0].text


def test_a_server_killed_mid_batch_completes_it_when_the_batch_is_sent_again(
    tmp_path: Any, store: str
) -> None:
    """kill -9 while a batch embeds; the same batch again leaves every document once, whole."""
    import os
    import signal

    paragraph = "The Heron valve {i}.{j} holds {j} bar of pressure in the north loop. " * 12
    docs = [
        {
            "name": f"valve-{i}.md",
            "text": "\n\n".join(paragraph.format(i=i, j=j) for j in range(40)),
        }
        for i in range(8)
    ]  # about 320 chunks: two write groups, ten embedding batches
    env = {"ADAPTIVE_RAG_AUTH_SECRET": SECRET, "SHARED_KB": str(tmp_path / "kb")}
    graphs = {"slow": f"{MODULE}:slow_knowledge_graph"}
    with langgraph_dev(tmp_path, graphs, env=env) as (url, proc):
        client = get_sync_client(url=url, headers=bearer("alice"))
        stream = client.runs.stream(None, "slow", input={"documents": docs}, stream_mode="custom")
        for part in stream:
            if part.event == "custom" and part.data.get("documents", 0) > 0:
                os.killpg(proc.pid, signal.SIGKILL)  # the first write group is in; the rest is not
                break
        proc.wait(timeout=30)
    with langgraph_dev(tmp_path, graphs, env=env) as (url, _):
        again = write_to(url, "slow", "alice", {"documents": docs})
    fates = {r["status"] for r in again["results"]}
    assert fates <= {"added", "replaced", "unchanged"} and "unchanged" in fates
    assert fates - {"unchanged"}  # the kill came mid-batch: some were still to write
    assert len(again["results"]) == len(docs)
    listed = {s["source"]: s["chunks"] for s in again["sources"]}
    whole = {d["name"]: n for d, n in zip(docs, _chunk_counts(docs), strict=True)}
    assert listed == whole  # every document once, with every chunk, none doubled


def write_to(url: str, graph: str, user: str, request: dict[str, Any]) -> dict[str, Any]:
    client = get_sync_client(url=url, headers=bearer(user))
    return dict(client.runs.wait(None, graph, input=request))  # type: ignore[arg-type]


def _chunk_counts(docs: list[dict[str, Any]]) -> list[int]:
    """The chunks a one-process ingest makes of each document."""
    from adaptive_rag.knowledge.chunking import chunk_documents
    from adaptive_rag.knowledge.loading import TextDocument, load_document

    return [
        len(chunk_documents(load_document(TextDocument(d["name"], d["text"])), d["name"])[0])
        for d in docs
    ]


def test_a_write_without_a_token_is_refused_and_writes_nothing(servers: tuple[str, str]) -> None:
    a, b = servers
    body = {"assistant_id": "knowledge", "input": {"documents": [{"name": "x.md", "text": "x"}]}}
    response = httpx.post(f"{a}/runs/wait", json=body, timeout=30)
    assert response.status_code in (401, 403), response.text
    assert "x.md" not in [s["source"] for s in write(b, "anonymous", {})["sources"]]
