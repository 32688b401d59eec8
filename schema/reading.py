"""Reading the state: the conversation without refused turns, history, verdicts, hops as text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from adaptive_rag.schema.state import REJECTED, State
from adaptive_rag.schema.values import Hop, SelfCheck
from langchain_core.messages import BaseMessage


def conversation(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """Return the thread's messages without refused turns (stand-ins and error replies)."""
    return [m for m in messages if getattr(m, "name", None) != REJECTED]


Switch = Literal["answer_check", "decline_unsupported", "declines", "clarify", "answer_cache"]


def switched_on(state: State, name: Switch) -> bool:
    """Return a switch copied into state at intake (off if missing)."""
    return bool((state.get("settings") or {}).get(name, False))


def has_history(state: State) -> bool:
    """Whether the conversation holds earlier answered turns before this question."""
    return len(conversation(state.get("messages") or [])) > 1


def verdict_score(check: SelfCheck) -> int:
    """Rank a self-check verdict: grounded counts twice as much as answering the question."""
    return 2 * int(check["grounded"]) + int(check["answers_question"])


def describe_hops(hops: Sequence[Hop]) -> str:
    """List hops as numbered 'query -> finding' lines, as the hop and answer prompts show them."""
    return "\n".join(
        f"{h['index'] + 1}. {h['query']} -> {h['finding'] or '(not found)'}" for h in hops
    )
