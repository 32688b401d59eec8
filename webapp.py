"""HTTP layer for `langgraph dev` and LangGraph Server: refused requests get a 422, no run.

The input rule (schema.checks) covers runs, batch runs, and creating or updating assistants.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from adaptive_rag.schema.checks import request_problem
from starlette.applications import Starlette
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


def run_request_problem(body: bytes, path: str = "/runs") -> str:
    """Say what is wrong with a run, batch or assistant request, or '' if it may go on."""
    try:
        payload = json.loads(body or b"null")
    except (ValueError, UnicodeDecodeError):
        return ""  # the server itself answers malformed JSON with a 422
    if BATCH_PATH.search(path) and isinstance(payload, list):
        problems = [(i, request_problem(item)) for i, item in enumerate(payload)]
        return next((f"run {i}: {problem}" for i, problem in problems if problem), "")
    return request_problem(payload)


class ValidateRuns:
    """ASGI middleware: check run requests before LangGraph Server creates the run."""

    def __init__(self, app: Callable[[Message, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Message, receive: Receive, send: Send) -> None:
        """Pass everything through except a POST to a runs endpoint whose body is wrong."""
        if not (scope["type"] == "http" and checked(scope["method"], scope["path"])):
            await self.app(scope, receive, send)
            return
        received: list[Message] = []
        body = b""
        while True:
            message = await receive()
            received.append(message)
            body += message.get("body", b"")
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


app = Starlette(middleware=[Middleware(ValidateRuns)])
"""Served beside the graphs (langgraph.json `http.app`); it adds no routes."""
