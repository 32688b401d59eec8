"""Over HTTP with authentication on: no token, no run; a token sees its own documents and threads.

Every attempt reads the whole response (JSON or the event stream) and looks for canaries of
documents the caller may not read (tenants.py); the echo model would repeat any it was shown.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import jwt
import pytest
from adaptive_rag.core.access import Reader
from aegra import deployment
from servers import ROOT, langgraph_dev
from tenants import QUESTIONS, build_kb, leaks, seen

pytestmark = pytest.mark.server

SECRET = "test-secret-for-adaptive-rag-auth-0123456789"
GRAPH = "tenants"
STREAM_MODES = ["values", "updates", "messages-tuple", "debug", "events", "custom"]
CALLERS = {"alice": Reader("alice"), "mallory": Reader("mallory", ("hr",))}


def token(sub: str, groups: list[str] | None = None, secret: str = SECRET, ttl: int = 3600) -> str:
    claims = {"sub": sub, "groups": groups or [], "exp": int(time.time()) + ttl}
    return jwt.encode(claims, secret, algorithm="HS256")


def bearer(sub: str, groups: list[str] | None = None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token(sub, groups)}"}


TOKENS = {
    "alice": bearer("alice"),
    "mallory": bearer("mallory", ["hr"]),
    "bob": bearer("bob", ["fin"]),
}


@pytest.fixture(scope="module", params=["langgraph-dev", "aegra"])
def server(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[str]:
    """One `langgraph dev`, or an Aegra deployment asked through its process that runs nothing."""
    work = tmp_path_factory.mktemp("access")
    build_kb(work / "kb", work / "corpus")
    graphs = {GRAPH: f"{ROOT / 'tests' / 'server_graph.py'}:tenants_graph"}
    env = {"ADAPTIVE_RAG_AUTH_SECRET": SECRET, "TENANTS_KB": str(work / "kb"), "KNOWLEDGE_URI": ""}
    if request.param == "aegra":
        with deployment(work / "aegra", graphs, env=env) as (api, _):
            yield api.url
    else:
        with langgraph_dev(work, graphs, env=env) as (url, _):
            yield url


def call(method: str, url: str, headers: dict[str, str], body: Any = None) -> httpx.Response:
    return httpx.request(method, url, headers=headers, json=body, timeout=60)


def run_body(question: str, **extra: Any) -> dict[str, Any]:
    return {"assistant_id": GRAPH, "input": {"question": question}, **extra}


def test_without_a_valid_token_every_request_is_refused(
    server: str, tally: Callable[..., None]
) -> None:
    none_alg = jwt.encode({"sub": "bob", "exp": int(time.time()) + 60}, None, algorithm="none")
    bad = {
        "no header": {},
        "garbage": {"Authorization": "Bearer not-a-jwt"},
        "wrong secret": {
            "Authorization": f"Bearer {token('bob', secret='guessed-secret-0123456789abcdef-xyz')}"
        },
        "expired": {"Authorization": f"Bearer {token('bob', ttl=-120)}"},
        "alg none": {"Authorization": f"Bearer {none_alg}"},
        "basic": {"Authorization": "Basic Ym9iOmJvYg=="},
        "studio header": {"x-auth-scheme": "langsmith"},
    }
    thread = call("POST", f"{server}/threads", TOKENS["bob"], {}).json()["thread_id"]
    requests = [
        ("POST", "/threads", {}),
        ("POST", "/runs/wait", run_body(QUESTIONS[2])),
        ("POST", "/runs/stream", run_body(QUESTIONS[2], stream_mode=["values"])),
        ("POST", "/threads/search", {}),
        ("POST", "/assistants/search", {"graph_id": GRAPH}),
        ("GET", f"/threads/{thread}", None),
        ("POST", f"/threads/{thread}/runs/wait", run_body(QUESTIONS[2])),
    ]
    attempts = found = 0
    for label, headers in bad.items():
        for method, path, body in requests:
            response = call(method, server + path, headers, body)
            attempts += 1
            found += len(leaks(response.text, Reader()))
            assert response.status_code in (401, 403), (label, path, response.status_code)
    tally(faults=attempts, leaks=found)


@pytest.mark.parametrize("caller", list(CALLERS))
def test_a_signed_in_reader_never_gets_another_readers_document(
    server: str, caller: str, tally: Callable[..., None]
) -> None:
    reader, headers = CALLERS[caller], TOKENS[caller]
    thread = call("POST", f"{server}/threads", headers, {}).json()["thread_id"]
    spoofs: list[dict[str, Any]] = [
        {},
        {"context": {"user": "bob", "groups": "fin"}},  # claiming another identity in context
        {"config": {"configurable": {"langgraph_auth_user": {"identity": "bob", "reader": "bob"}}}},
    ]
    attempts = found = 0
    own: set[str] = set()
    for question in [*QUESTIONS[:5], QUESTIONS[7]]:  # direct, title guess, Chinese, injection
        for spoof in spoofs:
            for method, path, body in (
                ("POST", "/runs/wait", run_body(question, **spoof)),
                ("POST", f"/threads/{thread}/runs/wait", run_body(question, **spoof)),
                ("POST", "/runs/stream", run_body(question, stream_mode=STREAM_MODES, **spoof)),
            ):
                response = call(method, server + path, headers, body)
                attempts += 1
                found += len(leaks(response.text, reader))
                assert not leaks(response.text, reader), (caller, question, spoof, path)
                assert response.status_code in (200, 422), response.text[:300]
                own |= seen(response.text)
    tally(faults=attempts, leaks=found)
    assert own == {"PUBLIC-KETTLE-1"} if caller == "mallory" else "CANARY-ALICE-7Q2" in own


def test_another_users_thread_cannot_be_read_run_or_changed(
    server: str, tally: Callable[..., None]
) -> None:
    bob, alice = TOKENS["bob"], TOKENS["alice"]
    thread = call("POST", f"{server}/threads", bob, {}).json()["thread_id"]
    run = call("POST", f"{server}/threads/{thread}/runs", bob, run_body(QUESTIONS[2])).json()
    bobs = call("GET", f"{server}/threads/{thread}/runs/{run['run_id']}/join", bob)
    assert "CANARY-BOB-3X9" in bobs.text  # bob's own thread does hold his document
    run_id = run["run_id"]
    attempts = found = 0
    for method, path, body in [
        ("GET", f"/threads/{thread}", None),
        ("GET", f"/threads/{thread}/state", None),
        ("POST", f"/threads/{thread}/history", {"limit": 10}),
        ("GET", f"/threads/{thread}/runs", None),
        ("GET", f"/threads/{thread}/runs/{run_id}", None),
        ("GET", f"/threads/{thread}/runs/{run_id}/join", None),
        ("GET", f"/threads/{thread}/runs/{run_id}/stream", None),
        ("POST", f"/threads/{thread}/runs/wait", run_body("What did you just tell me?")),
        ("POST", f"/threads/{thread}/state", {"values": {"question": "x"}}),
        ("POST", f"/threads/{thread}/copy", {}),
        ("PATCH", f"/threads/{thread}", {"metadata": {"owner": "alice"}}),
        ("DELETE", f"/threads/{thread}", None),
    ]:
        response = call(method, server + path, alice, body)
        attempts += 1
        found += len(leaks(response.text, Reader("alice")))
        # refused: not found, forbidden, or (copy) a conflict; a stream says so in its error event
        refused = (
            response.status_code in (403, 404, 409)
            or "404: Thread not found" in response.text
            or (response.status_code, response.text) == (200, "[]")  # Aegra lists none of its runs
        )
        assert refused, (path, response.status_code, response.text[:200])
    listed = call("POST", f"{server}/threads/search", alice, {"limit": 100})
    attempts += 1
    found += len(leaks(listed.text, Reader("alice")))
    assert thread not in listed.text
    still = call("GET", f"{server}/threads/{thread}/state", bob)
    assert still.status_code == 200 and "CANARY-BOB-3X9" in still.text  # nothing of bob's lost
    tally(faults=attempts, leaks=found)


def test_the_store_is_usable_only_under_ones_own_namespace(
    server: str, tally: Callable[..., None]
) -> None:
    alice = TOKENS["alice"]
    own = call(
        "PUT",
        f"{server}/store/items",
        alice,
        {"namespace": ["alice"], "key": "k", "value": {"v": 1}},
    )
    assert own.status_code in (200, 204), own.text
    attempts = 0
    for method, path, body in [
        ("PUT", "/store/items", {"namespace": ["bob"], "key": "k", "value": {"v": 2}}),
        ("GET", "/store/items?namespace=bob&key=k", None),
        ("POST", "/store/items/search", {"namespace_prefix": ["bob"]}),
        ("DELETE", "/store/items", {"namespace": ["bob"], "key": "k"}),
    ]:
        response = call(method, server + path, alice, body)
        attempts += 1
        assert response.status_code == 403, (path, response.status_code, response.text[:200])
    tally(faults=attempts)


def test_errors_say_what_is_wrong_and_nothing_else(server: str, tally: Callable[..., None]) -> None:
    alice = TOKENS["alice"]
    attempts = found = 0
    for body, refused in [
        (run_body(QUESTIONS[2], context={"k": 0}), True),
        (run_body(QUESTIONS[2], context={"user": "bob,carol"}), True),
        (run_body(QUESTIONS[2], context={"groups": "fin,\nbob"}), False),  # valid, then replaced
        ({"assistant_id": GRAPH, "input": {"question": 42}}, True),
        ({"assistant_id": "no-such-graph", "input": {"question": QUESTIONS[2]}}, True),
    ]:
        response = call("POST", f"{server}/runs/wait", alice, body)
        attempts += 1
        found += len(leaks(response.text, Reader("alice")))
        assert not leaks(response.text, Reader("alice"))
        assert (response.status_code >= 400) == refused, (body, response.text[:200])
    tally(faults=attempts, leaks=found)
