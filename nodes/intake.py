"""Intake: take this turn's question, validate it, and reset per-turn state."""

from __future__ import annotations

from typing import Any, cast

from adaptive_rag.core.failures import Failure
from adaptive_rag.core.text import language_of, message_text
from adaptive_rag.schema.checks import clean_question
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.run_context import RefusedContext
from adaptive_rag.schema.state import REJECTED, RESET, State, fresh_turn
from adaptive_rag.schema.updates import Update
from adaptive_rag.services import Services
from langchain_core.messages import HumanMessage


def intake(state: State, ctx: Context, services: Services) -> Update:
    """Read the question (plain `question` wins over the last human turn) and start a turn."""
    bad_context = ctx.problem if isinstance(ctx, RefusedContext) else ""
    update: Update = _fresh_turn(ctx, services)
    raw: Any = state.get("question")
    replaces: str | None = None  # id of an incoming human message a rejection stands in for
    if raw not in (None, ""):
        update["question"] = ""  # consumed, so a later turn sent as messages is not shadowed
    if raw not in (None, "") and not isinstance(raw, str):
        question, problem = "", f"The question must be text, not {type(raw).__name__}."
    else:
        if isinstance(raw, str) and raw.strip():
            text = raw
        else:
            messages = state.get("messages") or []
            last = messages[-1] if messages else None
            text = message_text(last) if isinstance(last, HumanMessage) else ""
            replaces = last.id if isinstance(last, HumanMessage) else None
        question, problem = clean_question(text)
    problem = bad_context or problem
    if problem:
        update["error"] = problem
        update["failures"] = [RESET, Failure(node="intake", kind="invalid_input", message=problem)]
        # the rejected input never enters the conversation; a short stand-in marks the turn
        update["messages"] = [
            HumanMessage(content=f"[input rejected: {problem}]", name=REJECTED, id=replaces)
        ]
    elif replaces is None:
        update["messages"] = [HumanMessage(content=question)]
    update.update(
        {
            "query": question,
            "standalone": question,
            "search_query": question,
            "language": language_of(question),
        }
    )
    return update


def _fresh_turn(ctx: Context, services: Services) -> Update:
    """Return the update that starts a question: every per-turn key at its declared start value.

    What a turn starts from depends on the run only here: the web, and the rules nodes and edges
    read (schema.values.TurnRules).
    """
    web = services.web(ctx)
    fresh = cast(Update, fresh_turn())
    fresh["steps"] = [RESET, "intake"]
    fresh["web_available"] = web is not None
    fresh["web_status"] = services.web_off(ctx, web)
    fresh["rules"] = {
        "rewrite_budget": ctx.max_rewrites,
        "regeneration_budget": ctx.max_regenerations,
        "web_search_budget": ctx.max_web_searches,
        "hop_budget": ctx.max_hops,
        "checks_answers": ctx.answer_check != "off",
        "declines_unsupported_answers": ctx.answer_check == "decline",
        "declines_unlikely_answers": ctx.declines == "when_unlikely",
        "answers_general_questions": ctx.general_questions == "answer",
        "asks_to_clarify": ctx.clarify,
        "uses_answer_cache": ctx.answer_cache,
    }
    return fresh
