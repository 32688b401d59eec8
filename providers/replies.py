"""Reading a chat model's reply: its text, its first clean line, or the JSON object it holds."""

from __future__ import annotations

import json
import re
from typing import TypeVar

from langchain_core.messages import BaseMessage
from pydantic import BaseModel, ValidationError

T = TypeVar("T", bound=BaseModel)


class StructuredOutputError(ValueError):
    """A model's reply could not be read as the expected structure."""

    failure_kind = "model_output"
    """How a node reports it (core.failures)."""


def message_text(message: BaseMessage) -> str:
    """Return a message's text, joining the text parts of multi-part content."""
    if isinstance(message.content, str):
        return message.content
    parts = [
        part if isinstance(part, str) else str(part.get("text", ""))
        for part in message.content
        if isinstance(part, str) or part.get("type") == "text"
    ]
    return " ".join(parts)


def clean_line(text: str, prefixes: tuple[str, ...] = ()) -> str:
    """Return the first non-empty line of a reply without labels, quotes or fences."""
    for raw in text.replace("```", "\n").splitlines():
        line = raw.strip()
        lowered = line.lower()
        for prefix in prefixes:
            if lowered.startswith(prefix):
                line = line[len(prefix) :].lstrip(" :：-")
                break
        line = line.strip().strip("\"'“”「」").strip()
        if line:
            return line
    return ""


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


def parse_json(text: str, schema: type[T]) -> T:
    """Read the first JSON object in a reply (fenced or bare) as a pydantic model."""
    fenced = _FENCE.search(text)
    candidate = fenced.group(1) if fenced else text
    start, end = candidate.find("{"), candidate.rfind("}")
    if start < 0 or end <= start:
        raise StructuredOutputError(f"no JSON object in reply: {text[:200]!r}")
    try:
        return schema.model_validate(json.loads(candidate[start : end + 1]))
    except (json.JSONDecodeError, ValidationError) as exc:
        raise StructuredOutputError(f"reply is not a valid {schema.__name__}: {exc}") from exc
