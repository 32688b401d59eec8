"""Rewrite a follow-up into a standalone question from the last few turns."""

from __future__ import annotations

from adaptive_rag.core.language import language_of
from adaptive_rag.nodekit.calling import ask
from adaptive_rag.prompts import rewrite_with_history as prompts
from adaptive_rag.providers.replies import clean_line, message_text
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.reading import conversation
from adaptive_rag.schema.state import State
from adaptive_rag.schema.updates import Update
from adaptive_rag.services import Services
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage


def recent_history(messages: list[BaseMessage], turns: int, max_chars: int = 600) -> str:
    """Format the last `turns` question/answer pairs before the latest question."""
    earlier = [m for m in conversation(messages)[:-1] if isinstance(m, HumanMessage | AIMessage)]
    window = earlier[-2 * turns :] if turns > 0 else []
    lines = []
    for message in window:
        who = "User" if isinstance(message, HumanMessage) else "Assistant"
        text = message_text(message).strip().replace("\n", " ")
        lines.append(f"{who}: {text[:max_chars]}")
    return "\n".join(lines)


def rewrite_messages(history: str, question: str) -> list[BaseMessage]:
    """Return the instruction and worked examples in the follow-up's language, then the task."""
    chinese = language_of(question) == "zh"
    system, user = (
        (prompts.SYSTEM_ZH, prompts.USER_ZH) if chinese else (prompts.SYSTEM, prompts.USER)
    )
    messages: list[BaseMessage] = [SystemMessage(system)]
    for past, follow_up, standalone in prompts.EXAMPLES_ZH if chinese else prompts.EXAMPLES:
        messages += [HumanMessage(user.format(history=past, question=follow_up))]
        messages += [AIMessage(standalone)]
    return [*messages, HumanMessage(user.format(history=history, question=question))]


def rewrite_with_history(state: State, ctx: Context, services: Services) -> Update:
    """Make the question standalone; if that fails, search with it as typed."""
    question = state.get("query") or ""
    update: Update = {"history_rewritten": True}
    history = recent_history(list(state.get("messages") or []), ctx.history_turns)
    if not history:
        return update
    messages = rewrite_messages(history, question)
    text = ask(update, "rewrite_with_history", services.chat, ctx, messages, "used as typed")
    if text is None:
        return update
    standalone = clean_line(
        text,
        prefixes=("standalone question", "question", "rewritten", "改写后的问题", "改写"),
    )
    if standalone:
        update["standalone"] = standalone
        update["search_query"] = standalone
    return update
