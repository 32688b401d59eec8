"""Baselines built from the same nodes: full pipeline, single-shot, no retrieval, multi-step.

The last three are the Adaptive-RAG paper's fixed strategies; the cheapest one that answers a
question correctly is its derived complexity label (A, B, C).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from typing import Any

from adaptive_rag.graph import edges
from adaptive_rag.graph.binding import bind
from adaptive_rag.graph.builder import RECURSION_LIMIT, build_builder
from adaptive_rag.nodes.assess import assess
from adaptive_rag.nodes.finalize import finalize
from adaptive_rag.nodes.generate import generate
from adaptive_rag.nodes.grade_documents import grade_documents
from adaptive_rag.nodes.hop import hop
from adaptive_rag.nodes.intake import intake
from adaptive_rag.nodes.retrieve import retrieve
from adaptive_rag.nodes.self_check import self_check
from adaptive_rag.nodes.transform_query import transform_query
from adaptive_rag.nodes.web_search import web_search
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.state import InputState, OutputState, State
from adaptive_rag.schema.updates import Update
from adaptive_rag.schema.values import Route
from adaptive_rag.services import Services
from langgraph.graph import END, START, StateGraph
from langgraph.types import Checkpointer


def _builder() -> StateGraph[Any, Any, Any, Any]:
    return StateGraph(
        State, context_schema=Context, input_schema=InputState, output_schema=OutputState
    )


def _from_intake(first: str) -> dict[Hashable, str]:
    """Map intake's edge onto a baseline: a question (cached or not) goes to `first`.

    A baseline keeps no answer cache: the graph's `recall` and `classify` both start its path.
    """
    return {"recall": first, "classify": first, "finalize": "finalize"}


_DECLINE_STANDS: dict[str, dict[Hashable, str]] = {
    "generate": {"self_check": "self_check", "finalize": "finalize", "answer_general": "finalize"},
    "self_check": {
        "finalize": "finalize",
        "generate": "generate",
        "transform_query": "transform_query",
        "answer_general": "finalize",
    },
    "grade_documents": {
        "assess": "assess",
        "generate": "generate",
        "transform_query": "transform_query",
        "web_search": "web_search",
        "answer_general": "transform_query",
    },
}
"""The full pipeline's edges past the search: where the graph would answer from general knowledge,
it ends in its decline, or, after a search that found nothing relevant, searches again."""


def build_full_pipeline(services: Services, checkpointer: Checkpointer = None) -> Any:
    """Build the full pipeline: rewrite, retrieve, grade, assess, generate, self-check; no routing.

    The first rewrite counts against max_rewrites: give this baseline max_rewrites + 1 for the
    same loop budget as the adaptive graph.
    """
    b = _builder()
    for node in (
        intake,
        transform_query,
        retrieve,
        grade_documents,
        assess,
        web_search,
        generate,
        self_check,
        finalize,
    ):
        b.add_node(node.__name__, bind(node, services))
    b.add_edge(START, "intake")
    b.add_conditional_edges("intake", edges.after_intake, _from_intake("transform_query"))
    b.add_conditional_edges("transform_query", edges.after_transform)
    b.add_edge("retrieve", "grade_documents")  # the full pipeline always grades
    b.add_conditional_edges(
        "grade_documents", edges.after_grading, _DECLINE_STANDS["grade_documents"]
    )
    b.add_edge("assess", "generate")
    b.add_conditional_edges("web_search", edges.after_web_search)
    # the pipeline the adaptive graph replaces answers from its documents only: a decline stands
    b.add_conditional_edges("generate", edges.after_generate, _DECLINE_STANDS["generate"])
    b.add_conditional_edges("self_check", edges.after_self_check, _DECLINE_STANDS["self_check"])
    b.add_edge("finalize", END)
    graph = b.compile(checkpointer=checkpointer, name="Full pipeline")
    return graph.with_config(recursion_limit=RECURSION_LIMIT)


def build_single_shot(services: Services, checkpointer: Checkpointer = None) -> Any:
    """Retrieve k documents and generate once: plain RAG."""
    b = _builder()
    for node in (intake, retrieve, generate, finalize):
        b.add_node(node.__name__, bind(node, services))
    b.add_edge(START, "intake")
    b.add_conditional_edges("intake", edges.after_intake, _from_intake("retrieve"))
    b.add_edge("retrieve", "generate")
    b.add_edge("generate", "finalize")
    b.add_edge("finalize", END)
    return b.compile(checkpointer=checkpointer, name="Single-shot RAG")


def build_no_retrieval(services: Services, checkpointer: Checkpointer = None) -> Any:
    """Answer from the model's own knowledge, searching nothing (strategy A)."""
    b = _builder()
    for node in (intake, generate, finalize):
        b.add_node(node.__name__, bind(node, services))
    b.add_node("as_general", _as_general)
    b.add_edge(START, "intake")
    b.add_conditional_edges("intake", edges.after_intake, _from_intake("as_general"))
    b.add_edge("as_general", "generate")
    b.add_edge("generate", "finalize")
    b.add_edge("finalize", END)
    return b.compile(checkpointer=checkpointer, name="No retrieval")


def _as_general(state: State) -> dict[str, Any]:
    """Route every question to the direct answer."""
    return {"route": Route(category="general", reason="no-retrieval strategy", method="rule")}


def build_multi_step(services: Services, checkpointer: Checkpointer = None) -> Any:
    """Hop (search, note the bridge fact, search again) up to max_hops, then answer (strategy C)."""
    b = _builder()
    for node in (intake, hop, generate, finalize):
        b.add_node(node.__name__, bind(node, services))
    b.add_edge(START, "intake")
    b.add_conditional_edges("intake", edges.after_intake, _from_intake("hop"))
    b.add_conditional_edges("hop", edges.after_hop)
    b.add_edge("generate", "finalize")
    b.add_edge("finalize", END)
    graph = b.compile(checkpointer=checkpointer, name="Multi-step RAG")
    return graph.with_config(recursion_limit=RECURSION_LIMIT)


def build_without_assess(services: Services, checkpointer: Checkpointer = None) -> Any:
    """Build the adaptive graph with an `assess` that asks no model (an ablation of its odds).

    Everything else is the agent's: the answerability judge reads the odds as not computed,
    as it does where `assess` does not run, and `generate` computes the sources itself.
    """
    b = build_builder(services)
    b.nodes["assess"] = dataclasses.replace(b.nodes["assess"], runnable=bind(_unasked, services))
    graph = b.compile(checkpointer=checkpointer, name="Adaptive RAG without assess")
    return graph.with_config(recursion_limit=RECURSION_LIMIT)


def _unasked(state: State, ctx: Context, services: Services) -> Update:
    """Pass `assess` by without its odds."""
    return {"steps": "assess", "support": None}
