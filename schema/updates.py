"""What a node may return: every State key with the type its reducer accepts, all optional.

Generated from schema/state.py by `python -m adaptive_rag.schema.generate_updates`: do not edit
it by hand (tests/graph/test_updates.py fails when it drifts). A node typed `-> Update` is held to
real State keys by the type checker: a misspelt key is an error at `mypy` time, not an update
LangGraph silently drops.
"""

from __future__ import annotations

from collections.abc import Sequence

from adaptive_rag.core.failures import Failure
from adaptive_rag.core.question import SmallTalk
from adaptive_rag.core.text import Language
from adaptive_rag.schema.state import Reset
from adaptive_rag.schema.values import (
    Decline,
    Diagnostics,
    GenerationMode,
    Hop,
    Judgment,
    Recall,
    Relevance,
    Route,
    Scored,
    SelfCheck,
    Shape,
    Source,
    SubSearch,
    TurnRules,
)
from langchain_core.documents import Document
from langchain_core.messages import AnyMessage
from typing_extensions import TypedDict


class Update(TypedDict, total=False):
    """A partial State update, typed as each key's reducer takes it (see schema.state)."""

    messages: Sequence[AnyMessage]
    question: str
    answer: str
    sources: list[Source]
    route: Route | None
    notices: list[str]
    confidence: float
    verified: bool
    answerable: bool
    decline: Decline | None
    language: Language
    failures: Failure | Sequence[Failure | Reset] | Reset
    diagnostics: Diagnostics
    query: str
    standalone: str
    search_query: str
    searched: str
    history_rewritten: bool
    clarified: bool
    clarification: str
    error: str
    web_available: bool
    rules: TurnRules
    documents: Document | Sequence[Document | Reset] | Reset
    probe_scores: Scored | None
    talk: SmallTalk | None
    doc_scores: list[float]
    relevance: Relevance | None
    retrieval_confident: bool
    graded: bool
    owned: str
    general_tried: bool
    read_whole: bool
    sub_questions: list[str]
    sub_searches: SubSearch | Sequence[SubSearch | Reset] | Reset
    shape: Shape | None
    hops: list[Hop]
    next_query: str
    mode: GenerationMode
    check: SelfCheck | None
    support: float | None
    answerable_p: float | None
    answer_features: dict[str, float]
    best_answer: str
    best_score: int
    best_sources: list[Source]
    answer_id: str
    answer_logprob: float | None
    best_id: str
    recalled: Recall | None
    rejected: list[Document]
    web_status: str
    retrievals: int | Reset
    generations: int | Reset
    rewrites: int | Reset
    regenerations: int | Reset
    web_searches: int | Reset
    model_calls: int | Reset
    tokens_in: int | Reset
    tokens_out: int | Reset
    tokens_cached: int | Reset
    steps: str | Sequence[str | Reset] | Reset
    notes: str | Sequence[str | Reset] | Reset
    judgments: Judgment | Sequence[Judgment | Reset] | Reset
