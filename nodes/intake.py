"""Intake: take this turn's question, validate it, and reset per-turn state."""

from __future__ import annotations

from typing import Any

from adaptive_rag.graph.context import Context, context_of
from adaptive_rag.graph.state import RESET, State
from adaptive_rag.services import Services
from adaptive_rag.services.chat import message_text
from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime


def intake(state: State, runtime: Runtime[Context], services: Services) -> dict[str, Any]:
    """Read the question (plain `question` wins over the last human turn) and start a turn."""
    ctx = context_of(runtime)
    update: dict[str, Any] = _fresh_turn(ctx, services)
    question = str(state.get("question") or "")
    if question.strip():
        update["messages"] = [HumanMessage(content=question)]
        update["question"] = ""  # consumed, so a later turn sent as messages is not shadowed
    else:
        messages = state.get("messages") or []
        last = messages[-1] if messages else None
        question = message_text(last) if isinstance(last, HumanMessage) else ""
    question = question.strip()
    if not question:
        update["error"] = "Please ask a question: the input had no question text."
    elif len(question) > ctx.max_question_chars:
        update["error"] = (
            f"The question is too long ({len(question)} characters; the limit is"
            f" {ctx.max_question_chars}). Please shorten it."
        )
    update.update(query=question, standalone=question, search_query=question)
    return update


def _fresh_turn(ctx: Context, services: Services) -> dict[str, Any]:
    """Return the update that clears everything a previous turn left in state."""
    web = services.web(ctx)
    return {
        "error": "",
        "route": None,
        "history_rewritten": False,
        "clarified": False,
        "clarification": "",
        "web_available": web is not None,
        "web_status": "" if web is not None else "web search is off (no TAVILY_API_KEY set)",
        "limits": {
            "max_rewrites": ctx.max_rewrites,
            "max_regenerations": ctx.max_regenerations,
            "max_web_searches": ctx.max_web_searches,
            "self_check": int(ctx.self_check),
            "clarify": int(ctx.clarify),
        },
        "documents": RESET,
        "rejected": [],
        "doc_scores": [],
        "relevance": None,
        "retrieval_confident": False,
        "graded": True,
        "sub_questions": [],
        "sub_answers": RESET,
        "mode": "none",
        "answer": "",
        "sources": [],
        "check": None,
        "best_answer": "",
        "best_score": -1,
        "best_sources": [],
        **{name: RESET for name in _COUNTERS},
        "steps": [RESET, "intake"],
        "notes": RESET,
    }


_COUNTERS = (
    "retrievals",
    "generations",
    "rewrites",
    "regenerations",
    "web_searches",
    "model_calls",
    "tokens_in",
    "tokens_out",
)
