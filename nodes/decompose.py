"""Decompose a complex question by rules: the things it compares, or hops that build on each other.

The shape comes from the setting, else from what a rule sees: a nested reference ("where was the
inventor of X born?") is searched in hops, anything else as one search over the whole question,
with each thing a comparison names ("compare A and B") searched beside it. No model is asked
(why: docs/decisions.md).
"""

from __future__ import annotations

from adaptive_rag.core.question import has_parts, nested_reference, split_parts
from adaptive_rag.nodekit.calling import judged, progress
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.state import State
from adaptive_rag.schema.updates import Update
from adaptive_rag.schema.values import Shape
from adaptive_rag.services import Services


def shape_of(question: str, setting: str) -> tuple[Shape, str]:
    """Return the shape a setting or a rule gives the question, and why."""
    if setting in ("parallel", "sequential"):
        return setting, f"complex_shape={setting}"  # type: ignore[return-value]
    if has_parts(question):
        return "parallel", "it compares or combines named things"
    if nested_reference(question):
        return "sequential", "it names something by a fact that must be found first"
    return "parallel", "no nested reference: searched whole"


def decompose(state: State, ctx: Context, services: Services) -> Update:
    """Choose the shape; a comparison's parts are searched beside the whole question."""
    question = state.get("standalone") or ""
    shape, why = shape_of(question, ctx.complex_shape)
    parts = split_parts(question) if shape == "parallel" else []
    update: Update = {"shape": shape, "sub_questions": parts}
    judged(update, "decompose", "rule", None, shape, why)
    progress({"step": "decompose", "shape": shape, "parts": parts})
    return update
