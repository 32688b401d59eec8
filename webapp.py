"""HTTP layer for `langgraph dev`, LangGraph Server and Aegra: refused requests get a 422, no run.

Each graph has its rule: the agent's (schema.checks) and the knowledge graph's
(schema.knowledge), chosen by the run's `assistant_id` or the assistant's `graph_id`; they cover
runs, batch runs, and creating or updating assistants. A body over MAX_REQUEST_BYTES is refused
with a 413 before it is read whole.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from adaptive_rag.schema.checks import request_problem
from adaptive_rag.schema.knowledge import MAX_REQUEST_BYTES, knowledge_problem
from fastapi import FastAPI
from starlette.middleware import Middleware
from starlette.responses import JSONResponse

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

RUN_PATH = re.compile(r"/(threads/[^/]+/)?runs(/wait|/stream|/batch)?/?$")
BATCH_PATH = re.compile(r"/runs/batch/?$")
ASSISTANT_PATH = re.compile(r"/assistants(/[^/]+)?/?$")
"""Where a body can carry input or context: runs, batch runs, creating or updating assistants."""


def checked(method: str, path: str) -> bool:
    """Whether a request's body is checked: run creation, and assistant creation or update."""
    if method == "POST" and RUN_PATH.search(path):
        return True
    return (method, bool(ASSISTANT_PATH.search(path))) in (("POST", True), ("PATCH", True)) and (
        not path.rstrip("/").endswith("/search")
    )


KNOWLEDGE = "knowledge"
"""The knowledge graph's id in langgraph.json."""


def payload_problem(payload: Any) -> str:
    """Check one run or assistant body by the rule of the graph it names."""
    if isinstance(payload, dict) and KNOWLEDGE in (
        payload.get("assistant_id"),
        payload.get("graph_id"),
    ):
        return knowledge_problem(payload.get("input"))
    return request_problem(payload)


def run_request_problem(body: bytes, path: str = "/runs") -> str:
    """Say what is wrong with a run, batch or assistant request, or '' if it may go on."""
    try:
        payload = json.loads(body or b"null")
    except (ValueError, UnicodeDecodeError):
        return ""  # the server itself answers malformed JSON with a 422
    if BATCH_PATH.search(path) and isinstance(payload, list):
        problems = [(i, payload_problem(item)) for i, item in enumerate(payload)]
        return next((f"run {i}: {problem}" for i, problem in problems if problem), "")
    return payload_problem(payload)


def _too_large(size: int) -> JSONResponse:
    """Return the 413 for a body over the limit."""
    detail = (
        f"the request body is {size} bytes or more; the limit is {MAX_REQUEST_BYTES} bytes:"
        " send fewer or smaller documents a request"
    )
    return JSONResponse({"detail": detail}, status_code=413)


class ValidateRuns:
    """ASGI middleware: check run requests before LangGraph Server creates the run."""

    def __init__(self, app: Callable[[Message, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Message, receive: Receive, send: Send) -> None:
        """Pass everything through except a POST to a runs endpoint whose body is wrong."""
        if not (scope["type"] == "http" and checked(scope["method"], scope["path"])):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length", b"").decode() or "0"
        if declared.isdigit() and int(declared) > MAX_REQUEST_BYTES:
            await _too_large(int(declared))(scope, receive, send)
            return
        received: list[Message] = []
        body = b""
        while True:
            message = await receive()
            received.append(message)
            body += message.get("body", b"")
            if len(body) > MAX_REQUEST_BYTES:  # a chunked body that declared no length
                await _too_large(len(body))(scope, receive, send)
                return
            if message["type"] != "http.request" or not message.get("more_body"):
                break
        problem = run_request_problem(body, scope["path"])
        if problem:
            response = JSONResponse({"detail": problem}, status_code=422)
            await response(scope, receive, send)
            return

        async def replay() -> Message:
            return received.pop(0) if received else await receive()

        await self.app(scope, replay, send)


app = FastAPI(
    middleware=[Middleware(ValidateRuns)], docs_url=None, redoc_url=None, openapi_url=None
)
"""Served beside the graphs (`http.app` of langgraph.json and aegra.json); it adds no routes.

A FastAPI app, because Aegra takes no other kind; langgraph-api takes any Starlette app."""
