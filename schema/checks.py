"""The one input rule: what a run may be given, checked the same way in Python and over HTTP.

`intake` applies it to the question it takes; the HTTP layer (webapp) applies it to run requests,
batch runs and assistants before anything is stored. Each says what is wrong in the same words.
"""

from __future__ import annotations

import re
from dataclasses import fields
from typing import Any

from adaptive_rag.schema.context import Context, removed_problem

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

MAX_QUESTION_CHARS = 4000
"""The longest question accepted, in characters: a limit a request cannot raise."""


def looks_binary(text: str) -> bool:
    """Whether a text is binary data decoded as text: many control characters, or U+FFFD runs."""
    controls = len(_CONTROL.findall(text))
    return controls > max(2, len(text) // 20) or "\ufffd" * 3 in text


def clean_question(text: str, max_chars: int = MAX_QUESTION_CHARS) -> tuple[str, str]:
    """Return the question without control characters, or '' and why it cannot be asked."""
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        return "", "The question is not valid UTF-8 text. Please send it as UTF-8."
    question = _CONTROL.sub("", text).strip()
    if not question:
        return "", "Please ask a question: the input had no question text."
    if looks_binary(text):
        return "", "The input looks like binary data, not a question."
    if len(question) > max_chars:
        return "", (
            f"The question is too long ({len(question)} characters; the limit is"
            f" {max_chars}). Please shorten it."
        )
    return question, ""


def context_problem(context: object, configurable: object = None) -> str:
    """Say what is wrong with a run's context (and Context fields in config.configurable)."""
    if context is not None and not isinstance(context, dict):
        return f"context must be an object, not {type(context).__name__}"
    if configurable is not None and not isinstance(configurable, dict):
        return f"config.configurable must be an object, not {type(configurable).__name__}"
    removed = removed_problem(context) or removed_problem(configurable)
    if removed:
        return f"context: {removed}"
    names = {f.name for f in fields(Context)}
    given = {k: v for k, v in (configurable or {}).items() if k in names}
    try:
        Context(**{**given, **(context or {})})
    except (TypeError, ValueError) as exc:
        return f"context: {exc}"
    return ""


def message_text_of(item: object) -> tuple[str | None, str]:
    """Return a message's text (None if it has no text at all) and its role, from any shape."""
    if isinstance(item, str):
        return item, "human"
    if not isinstance(item, dict):
        return None, ""
    role = str(item.get("role") or item.get("type") or "")
    content = item.get("content")
    if isinstance(content, str):
        return content, role
    if isinstance(content, list):
        texts = [
            part if isinstance(part, str) else str(part.get("text", ""))
            for part in content
            if isinstance(part, str) or (isinstance(part, dict) and part.get("type") == "text")
        ]
        return (" ".join(texts) if texts else None), role
    return None, role


def input_problem(data: object, max_chars: int = MAX_QUESTION_CHARS) -> str:
    """Say what is wrong with a run's input (each human turn is checked like a question)."""
    if data is None:
        return ""
    if not isinstance(data, dict):
        return f"input must be an object with 'question' or 'messages', not {type(data).__name__}"
    question = data.get("question")
    if question is not None:
        if not isinstance(question, str):
            return f"input.question must be a string, not {type(question).__name__}"
        if question.strip():
            return clean_question(question, max_chars)[1]
    messages = data.get("messages")
    if messages is None:
        return ""
    if not isinstance(messages, list | str):
        return f"input.messages must be a list, not {type(messages).__name__}"
    for item in [messages] if isinstance(messages, str) else messages:
        text, role = message_text_of(item)
        if role in ("human", "user", ""):  # a turn the user sends is checked like a question
            problem = clean_question(text or "", max_chars)[1]
            if problem:
                return f"input.messages: {problem}"
        elif text is None:
            return f"input.messages: a {role} message needs text content"
    return ""


def request_problem(payload: Any) -> str:
    """Check a run request or an assistant body: its context, configurable and input."""
    if not isinstance(payload, dict):
        return ""  # the server answers a body that is not an object itself
    config = payload.get("config")
    configurable = config.get("configurable") if isinstance(config, dict) else None
    problem = context_problem(payload.get("context"), configurable)
    if problem:
        return problem
    return input_problem(payload.get("input"))
