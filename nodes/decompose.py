"""Decompose a complex question into 2-4 standalone sub-questions."""

from __future__ import annotations

from typing import Any

from adaptive_rag.graph.context import Context, context_of
from adaptive_rag.graph.state import State
from adaptive_rag.prompts import decompose as prompts
from adaptive_rag.services import Services
from adaptive_rag.services.chat import call_model, parse_json
from adaptive_rag.services.secrets import describe
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime
from pydantic import BaseModel, Field


class SubQuestions(BaseModel):
    """The decomposer's reply."""

    sub_questions: list[str] = Field(default_factory=list)


def decompose(state: State, runtime: Runtime[Context], services: Services) -> dict[str, Any]:
    """Split the question; fewer than two usable parts sends it down the simple path."""
    ctx = context_of(runtime)
    question = state.get("standalone") or ""
    update: dict[str, Any] = {"steps": "decompose", "sub_questions": []}
    try:
        reply = call_model(
            services.chat(ctx),
            [
                SystemMessage(prompts.SYSTEM.format(max_sub_questions=ctx.max_sub_questions)),
                HumanMessage(prompts.USER.format(question=question)),
            ],
            SubQuestions,
        )
    except Exception as exc:
        update["notes"] = f"decompose: model failed ({describe(exc)}); answered as simple"
        return update
    update.update(reply.usage())
    try:
        parsed = parse_json(reply.text, SubQuestions).sub_questions
    except ValueError:
        update["notes"] = "decompose: reply was not readable; answered as simple"
        return update
    unique: list[str] = []
    for item in parsed:
        text = str(item).strip()
        if text and text.casefold() not in {u.casefold() for u in unique}:
            unique.append(text)
    if len(unique) < 2:
        update["notes"] = "decompose: fewer than two sub-questions; answered as simple"
        return update
    update["sub_questions"] = unique[: ctx.max_sub_questions]
    return update
