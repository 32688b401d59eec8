"""A chat message's text, whatever form its content takes."""

from __future__ import annotations

from langchain_core.messages import BaseMessage


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
