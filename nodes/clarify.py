"""Clarify: ask the user what a dangling question refers to (LangGraph interrupt), then resume."""

from __future__ import annotations

import re

from adaptive_rag.prompts import clarify as prompts
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.state import State
from adaptive_rag.schema.updates import Update
from adaptive_rag.services import Services
from langgraph.config import get_config
from langgraph.types import interrupt

_CJK = re.compile(r"[\u3400-\u9fff]")


def combine(question: str, reply: str) -> str:
    """Turn the user's reply into the question to answer: a full question wins, else merge."""
    reply = reply.strip()
    if not reply:
        return question
    if reply.endswith(("?", "？")) or len(reply.split()) > 6:
        return reply
    return f"{question} ({reply})"


def clarify(state: State, ctx: Context, services: Services) -> Update:
    """Interrupt for a clarification when the run can be resumed; else ask it as the answer."""
    question = state.get("query") or ""
    ask = prompts.ASK_ZH if _CJK.search(question) else prompts.ASK_EN
    update: Update = {"clarified": True}
    resumable = bool((get_config().get("configurable") or {}).get("thread_id"))
    if not resumable:  # no checkpointer thread to resume: the next turn answers it as a follow-up
        update["clarification"] = ask
        return update
    reply = interrupt({"type": "clarify", "question": ask, "original": question})
    standalone = combine(
        question, str(reply if not isinstance(reply, dict) else reply.get("answer", ""))
    )
    update.update({"standalone": standalone, "search_query": standalone, "history_rewritten": True})
    return update
