"""Decompose a complex question: independent parts at once, or hops that build on each other."""

from __future__ import annotations

from typing import Any, Literal

from adaptive_rag.core.failures import failed
from adaptive_rag.core.shape import has_parts, nested_reference
from adaptive_rag.prompts import decompose as prompts
from adaptive_rag.providers.chat import call_model, parse_json
from adaptive_rag.schema.context import Context, context_of
from adaptive_rag.schema.state import Shape, State
from adaptive_rag.services import Services
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime
from pydantic import BaseModel, Field


class SubQuestions(BaseModel):
    """The decomposer's reply."""

    shape: Literal["parallel", "sequential"] = "parallel"
    sub_questions: list[str] = Field(default_factory=list)


def shape_by_rules(question: str, setting: str) -> Shape | None:
    """Return the shape a setting or a cheap rule is sure of, else None (the model decides)."""
    if setting in ("parallel", "sequential"):
        return setting  # type: ignore[return-value]
    if has_parts(question):
        return "parallel"
    if nested_reference(question):
        return "sequential"
    return None


def decompose(state: State, runtime: Runtime[Context], services: Services) -> dict[str, Any]:
    """Choose the shape and split; a nested question hops, fewer than two parts goes simple."""
    ctx = context_of(runtime)
    question = state.get("standalone") or ""
    ruled = shape_by_rules(question, ctx.complex_shape)
    update: dict[str, Any] = {"steps": "decompose", "sub_questions": [], "shape": ruled}
    if ruled == "sequential":  # the hops write their own queries: no split needed
        runtime.stream_writer({"step": "decompose", "shape": "sequential"})
        return update
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
        update.update(failed("decompose", "model", exc, "answered as simple"))
        update["shape"] = None
        return update
    update.update(reply.usage())
    try:
        parsed = parse_json(reply.text, SubQuestions)
    except ValueError as exc:
        update.update(failed("decompose", "model", exc, "answered as simple"))
        update["shape"] = None
        return update
    unique: list[str] = []
    for item in parsed.sub_questions:
        text = str(item).strip()
        if text and text.casefold() not in {u.casefold() for u in unique}:
            unique.append(text)
    update["shape"] = ruled or parsed.shape
    runtime.stream_writer({"step": "decompose", "shape": update["shape"], "parts": unique})
    if update["shape"] == "sequential":
        update["sub_questions"] = unique[:1]  # the first hop's query; later ones use its finding
        return update
    if len(unique) < 2:
        update["notes"] = "decompose: fewer than two sub-questions; answered as simple"
        update["shape"] = None
        return update
    update["sub_questions"] = unique[: ctx.max_sub_questions]
    return update
