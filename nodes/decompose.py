"""Decompose a complex question: independent parts at once, or hops that build on each other."""

from __future__ import annotations

from typing import Literal

from adaptive_rag.core.shape import has_parts, nested_reference
from adaptive_rag.nodes.calling import ask_json, note
from adaptive_rag.prompts import decompose as prompts
from adaptive_rag.schema.context import Context, context_of
from adaptive_rag.schema.state import Shape, State
from adaptive_rag.schema.updates import Update
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


def decompose(state: State, runtime: Runtime[Context], services: Services) -> Update:
    """Choose the shape and split; a nested question hops, fewer than two parts goes simple."""
    ctx = context_of(runtime)
    question = state.get("standalone") or ""
    ruled = shape_by_rules(question, ctx.complex_shape)
    update: Update = {"steps": "decompose", "sub_questions": [], "shape": ruled}
    if ruled == "sequential":  # the hops write their own queries: no split needed
        runtime.stream_writer({"step": "decompose", "shape": "sequential"})
        return update
    messages = [
        SystemMessage(prompts.SYSTEM.format(max_sub_questions=ctx.max_sub_questions)),
        HumanMessage(prompts.USER.format(question=question)),
    ]
    then = "answered as simple"
    parsed = ask_json(update, "decompose", services.splitter, ctx, messages, SubQuestions, then)
    if parsed is None:
        update["shape"] = None
        return update
    unique: list[str] = []
    for item in parsed.sub_questions:
        text = str(item).strip()
        if text and text.casefold() not in {u.casefold() for u in unique}:
            unique.append(text)
    shape = ruled or parsed.shape
    update["shape"] = shape
    runtime.stream_writer({"step": "decompose", "shape": shape, "parts": unique})
    if shape == "sequential":
        update["sub_questions"] = unique[:1]  # the first hop's query; later ones use its finding
        return update
    if len(unique) < 2:
        note(update, "decompose: fewer than two sub-questions; answered as simple")
        update["shape"] = None
        return update
    update["sub_questions"] = unique[: ctx.max_sub_questions]
    return update
