"""HTTP layer for `langgraph dev` and LangGraph Server: malformed run requests get a 422, no run."""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from adaptive_rag.nodes.intake import clean_question
from adaptive_rag.schema.context import Context
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import JSONResponse

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

RUN_PATH = re.compile(r"/(threads/[^/]+/)?runs(/wait|/stream)?/?$")


def run_request_problem(body: bytes) -> str:
    """Say what is wrong with a run request's input or context, or '' if it may run."""
    try:
        payload = json.loads(body or b"null")
    except (ValueError, UnicodeDecodeError):
        return ""  # the server itself answers malformed JSON with a 422
    if not isinstance(payload, dict):
        return ""
    context = payload.get("context")
    limit = Context.max_question_chars
    if context is not None:
        if not isinstance(context, dict):
            return f"context must be an object, not {type(context).__name__}"
        try:
            limit = Context(**context).max_question_chars
        except (TypeError, ValueError) as exc:
            return f"context: {exc}"
    data = payload.get("input")
    if data is None:
        return ""
    if not isinstance(data, dict):
        return f"input must be an object with 'question' or 'messages', not {type(data).__name__}"
    question = data.get("question")
    if question is not None:
        if not isinstance(question, str):
            return f"input.question must be a string, not {type(question).__name__}"
        if question.strip():
            return clean_question(question, limit)[1]
    messages = data.get("messages")
    if messages is not None:
        if not isinstance(messages, list | str):
            return f"input.messages must be a list, not {type(messages).__name__}"
        for item in messages if isinstance(messages, list) else []:
            content = item.get("content") if isinstance(item, dict) else item
            if not isinstance(content, str | list):
                return f"input.messages: content must be text, not {type(content).__name__}"
    return ""


class ValidateRuns:
    """ASGI middleware: check run requests before LangGraph Server creates the run."""

    def __init__(self, app: Callable[[Message, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Message, receive: Receive, send: Send) -> None:
        """Pass everything through except a POST to a runs endpoint whose body is wrong."""
        if not (
            scope["type"] == "http" and scope["method"] == "POST" and RUN_PATH.search(scope["path"])
        ):
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
        problem = run_request_problem(body)
        if problem:
            response = JSONResponse({"detail": problem}, status_code=422)
            await response(scope, receive, send)
            return

        async def replay() -> Message:
            return received.pop(0) if received else await receive()

        await self.app(scope, replay, send)


app = Starlette(middleware=[Middleware(ValidateRuns)])
"""Served beside the graphs (langgraph.json `http.app`); it adds no routes."""
