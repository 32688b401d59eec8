"""Build the adaptive / Self-RAG / CRAG state machine from the nodes and edges."""

from __future__ import annotations

from typing import Any

from adaptive_rag.graph import edges
from adaptive_rag.graph.binding import Node, bind
from adaptive_rag.nodes.answer_general import answer_general
from adaptive_rag.nodes.assess import assess
from adaptive_rag.nodes.clarify import clarify
from adaptive_rag.nodes.classify import classify
from adaptive_rag.nodes.decompose import decompose
from adaptive_rag.nodes.finalize import finalize
from adaptive_rag.nodes.generate import generate
from adaptive_rag.nodes.grade_documents import grade_documents
from adaptive_rag.nodes.hop import hop
from adaptive_rag.nodes.intake import intake
from adaptive_rag.nodes.recall import recall
from adaptive_rag.nodes.remember import remember
from adaptive_rag.nodes.retrieve import retrieve
from adaptive_rag.nodes.rewrite_with_history import rewrite_with_history
from adaptive_rag.nodes.self_check import self_check
from adaptive_rag.nodes.sub_question import sub_question
from adaptive_rag.nodes.transform_query import transform_query
from adaptive_rag.nodes.web_search import web_search
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.state import InputState, OutputState, State, SubQuestionState
from adaptive_rag.services import Services
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Checkpointer

RECURSION_LIMIT = 200
"""A backstop only: every loop already ends on its own budget well before this."""

NODES: tuple[Node, ...] = (
    intake,
    recall,
    classify,
    rewrite_with_history,
    clarify,
    decompose,
    hop,
    retrieve,
    grade_documents,
    assess,
    transform_query,
    web_search,
    generate,
    self_check,
    answer_general,
    finalize,
    remember,
)
"""The graph's nodes on the whole state, in the order a question meets them (sub_question, on
its own input, is added beside them)."""


def build_builder(services: Services | None = None) -> StateGraph[Any, Any, Any, Any]:
    """Return the uncompiled graph, for hosts that compile it with their own options."""
    svc = services or Services()
    builder = StateGraph(
        State, context_schema=Context, input_schema=InputState, output_schema=OutputState
    )
    for node in NODES:
        builder.add_node(node.__name__, bind(node, svc))
    builder.add_node("sub_question", bind(sub_question, svc), input_schema=SubQuestionState)

    builder.add_edge(START, "intake")
    builder.add_conditional_edges("intake", edges.after_intake)
    builder.add_conditional_edges("recall", edges.after_recall)
    builder.add_conditional_edges("classify", edges.route_question)
    builder.add_edge("rewrite_with_history", "classify")
    builder.add_conditional_edges("clarify", edges.after_clarify)
    builder.add_conditional_edges("decompose", edges.fan_out, ["sub_question", "retrieve", "hop"])
    builder.add_conditional_edges("hop", edges.after_hop)
    builder.add_edge("sub_question", "generate")
    builder.add_edge("retrieve", "grade_documents")
    builder.add_conditional_edges("grade_documents", edges.after_grading)
    builder.add_edge("assess", "generate")
    builder.add_conditional_edges("transform_query", edges.after_transform)
    builder.add_conditional_edges("web_search", edges.after_web_search)
    builder.add_conditional_edges("generate", edges.after_generate)
    builder.add_conditional_edges("self_check", edges.after_self_check)
    builder.add_conditional_edges("answer_general", edges.after_answer_general)
    builder.add_conditional_edges("finalize", edges.after_finalize)
    builder.add_edge("remember", END)
    return builder


def build_graph(
    checkpointer: Checkpointer = None,
    store: Any = None,
    *,
    services: Services | None = None,
    name: str = "Adaptive RAG",
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile the agent; pass a checkpointer for multi-turn threads, services to inject models."""
    graph = build_builder(services).compile(checkpointer=checkpointer, store=store, name=name)
    return graph.with_config(recursion_limit=RECURSION_LIMIT)
