"""The graph's typed state: a narrow input, the working state, and a narrow output.

Each key is declared once, here: its type, its reducer (the last `Annotated` item, as LangGraph
reads it) and, for keys that start afresh every turn, `Turn(value)`: intake writes that value at
the start of each question (`fresh_turn`). Keys without `Turn` carry over (`messages`) or are
written every turn (the question's forms by intake, the output by finalize). What a node may
return (`schema/updates.py`) is generated from these declarations.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Final, Literal, get_type_hints

from adaptive_rag.core.failures import Failure
from adaptive_rag.core.question import SmallTalk
from adaptive_rag.core.text import Language, doc_key
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
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict

REJECTED = "rejected_input"
"""Name on the messages of a turn whose input was refused; history leaves them out."""

REMEMBERED = (
    "answer",
    "sources",
    "confidence",
    "verified",
    "answerable",
    "decline",
    "notices",
    "language",
    "route",
)
"""Output fields an answer is cached with, and returned with again."""


# The reducers of counters and lists that add up within a turn. A key declared
# `Annotated[list[str], Turn(RESET), extend_or_reset]` starts every turn at RESET and then adds
# up through its reducer; LangGraph takes a key's reducer from the last `Annotated` item when it
# is callable, so the `Turn` marker (never callable) may stand before it.

RESET: Final = "__reset__"
Reset = Literal["__reset__"]
"""Sentinel a node writes to a per-turn list or counter to clear it for a new question."""


@dataclass(frozen=True)
class Turn:
    """Marks a State key that starts every turn at `start` (intake writes it)."""

    start: Any
    """The key's value when a new question begins (RESET for a key with a reducer)."""


def _reset_split(right: object) -> tuple[bool, list[Any]]:
    """Split an update into (reset first?, items); RESET alone or leading a list resets."""
    if right == RESET:
        return True, []
    if isinstance(right, list) and right and right[0] == RESET:
        return True, list(right[1:])
    if right is None:
        return False, []
    return False, list(right) if isinstance(right, list) else [right]


def add_or_reset(left: int | None, right: int | str | None) -> int:
    """Add an increment to a counter, or reset it to zero on RESET."""
    if right == RESET:
        return 0
    return (left or 0) + int(right or 0)


def extend_or_reset(left: list[Any] | None, right: list[Any] | Any | None) -> list[Any]:
    """Append to a per-turn log; RESET (alone or first in the list) clears it first."""
    reset, items = _reset_split(right)
    return [*([] if reset else (left or [])), *items]


def merge_documents(left: list[Document] | None, right: list[Any] | str | None) -> list[Document]:
    """Add documents without duplicates; RESET first in the update replaces the list."""
    reset, items = _reset_split(right)
    merged = [] if reset else list(left or [])
    seen = {doc_key(doc) for doc in merged}
    for doc in items:
        if isinstance(doc, Document) and doc_key(doc) not in seen:
            seen.add(doc_key(doc))
            merged.append(doc)
    return merged


def merge_sub_searches(
    left: list[SubSearch] | None, right: list[Any] | str | None
) -> list[SubSearch]:
    """Collect the searches of parallel sub-questions in question order; RESET clears them."""
    reset, items = _reset_split(right)
    combined = [*([] if reset else (left or [])), *items]
    return sorted(combined, key=lambda item: item["index"])


class InputState(TypedDict, total=False):
    """What a caller sends: a chat, or a plain question."""

    messages: Annotated[list[AnyMessage], add_messages]
    """The conversation; its last human turn is the question."""
    question: str
    """A plain question, used instead of (and appended to) the messages."""


class OutputState(TypedDict, total=False):
    """What a caller gets back."""

    messages: Annotated[list[AnyMessage], add_messages]
    """The conversation with the answer appended as an AI message."""
    answer: Annotated[str, Turn("")]
    """The final answer, with [n] citations into sources."""
    sources: Annotated[list[Source], Turn([])]
    """What the answer relied on."""
    route: Annotated[Route | None, Turn(None)]
    """The question's classification and why."""
    notices: Annotated[list[str], Turn([])]
    """What the answer says about itself, as shown inside `answer` (from general knowledge, web
    unreachable, unverified): a client can show them apart, an eval can score without them."""
    confidence: float
    """0-1, from grading and self-check; low means check before trusting."""
    verified: bool
    """True only when the self-check passed; direct and fallback answers are unverified."""
    answerable: bool
    """False when the agent declined: the sources do not answer it (see `decline`)."""
    decline: Annotated[Decline | None, Turn(None)]
    """Why the agent declined (set by the node that found out), or None when it answered."""
    language: Language
    """The question's language ('en' or 'zh'); the answer is written in it."""
    failures: Annotated[list[Failure], Turn(RESET), extend_or_reset]
    """What failed this turn (node, kind, message); the run went on without it."""
    diagnostics: Diagnostics
    """Steps taken and what they cost."""


class State(InputState, OutputState, total=False):
    """The working state of one question; keys marked `Turn` start afresh each turn."""

    query: str
    """The question as asked this turn."""
    standalone: str
    """The question made standalone from history (equal to query on a first turn)."""
    search_query: str
    """The query the next retrieval or web search uses."""
    searched: Annotated[str, Turn("")]
    """A query whose knowledge-base results are already in `documents` (classify's probe)."""
    history_rewritten: Annotated[bool, Turn(False)]
    """Whether the follow-up rewrite already ran this turn."""
    clarified: Annotated[bool, Turn(False)]
    """Whether the user was already asked what the question refers to this turn."""
    clarification: Annotated[str, Turn("")]
    """The clarifying question returned as the answer (when the run cannot be resumed)."""
    error: Annotated[str, Turn("")]
    """Why the input was refused (empty, too long); empty when valid."""
    web_available: Annotated[bool, Turn(False)]
    """Whether a web search can be attempted this turn."""
    rules: Annotated[TurnRules, Turn({})]
    """The turn's budgets and switches, taken from Context at intake (nodes and edges read them)."""
    documents: Annotated[list[Document], Turn(RESET), merge_documents]
    """Documents gathered this turn (knowledge base and web)."""
    probe_scores: Annotated[Scored | None, Turn(None)]
    """classify's probe: each source it found scored for its question; grade_documents reuses the
    scores when it grades that same search."""
    talk: Annotated[SmallTalk | None, Turn(None)]
    """The small talk classify's rules found (a greeting, a question about the assistant, a sum,
    a translation): answered as such, with no fact to look up."""
    doc_scores: Annotated[list[float], Turn([])]
    """Relevance score per document in `documents`, from the relevance judge (1.0: not judged)."""
    relevance: Annotated[Relevance | None, Turn(None)]
    """CRAG verdict on the latest retrieval."""
    retrieval_confident: Annotated[bool, Turn(False)]
    """Both search channels agreed on the top document (a signal for confidence)."""
    graded: Annotated[bool, Turn(True)]
    """False when no relevance judge was available for the sources (they were kept unjudged)."""
    owned: Annotated[str, Turn("")]
    """Why the question is about the knowledge base's own things ('' when it is not, core.question):
    it is never answered from general knowledge, and an answer the check cannot support is
    declined."""
    general_tried: Annotated[bool, Turn(False)]
    """Whether answer_general already asked the model's own knowledge this turn."""
    read_whole: Annotated[bool, Turn(False)]
    """Whether several of the search's sources were likely: grade_documents then reads the rest too
    (not for a question routed `simple`), and the answer is written without `assess`'s odds."""
    sub_questions: Annotated[list[str], Turn([])]
    """Sub-questions of a complex question."""
    sub_searches: Annotated[list[SubSearch], Turn(RESET), merge_sub_searches]
    """What each sub-question's search found, in order (fused before writing)."""
    shape: Annotated[Shape | None, Turn(None)]
    """How decompose split a complex question (None until it has)."""
    hops: Annotated[list[Hop], Turn([])]
    """Searches of the multi-step path so far, each with its finding."""
    next_query: Annotated[str, Turn("")]
    """The query of the next hop, written from the findings so far ('' when none)."""
    mode: Annotated[GenerationMode, Turn("none")]
    """How the latest answer was produced."""
    check: Annotated[SelfCheck | None, Turn(None)]
    """Self-RAG verdict on the latest answer."""
    support: Annotated[float | None, Turn(None)]
    """How likely the sources state the answer (the model's odds of yes, before writing)."""
    answerable_p: Annotated[float | None, Turn(None)]
    """The answerability judge's last probability this turn that the sources answer (None: none)."""
    answer_features: Annotated[dict[str, float], Turn({})]
    """What the answerability judge read of the latest answer (kept for refitting it from runs)."""
    best_answer: Annotated[str, Turn("")]
    """The best checked answer so far, returned if the budget runs out."""
    best_score: Annotated[int, Turn(-1)]
    """Score of best_answer: 2 if grounded, plus 1 if it answers the question."""
    best_sources: Annotated[list[Source], Turn([])]
    """The sources best_answer cites."""
    answer_id: Annotated[str, Turn("")]
    """Message id of the latest answer's streamed tokens; the final AI message keeps it."""
    answer_logprob: Annotated[float | None, Turn(None)]
    """Mean log-probability of the latest answer's tokens (None when the model gave none)."""
    best_id: Annotated[str, Turn("")]
    """Message id of best_answer's tokens."""
    recalled: Annotated[Recall | None, Turn(None)]
    """An earlier answer to the same question (answer cache), returned instead of a new run."""
    rejected: Annotated[list[Document], Turn([])]
    """Documents the relevance judge found unlikely; used only when nothing better was found."""
    web_status: Annotated[str, Turn("")]
    """'', 'ok', or why the web was not reached."""
    retrievals: Annotated[int, Turn(RESET), add_or_reset]
    generations: Annotated[int, Turn(RESET), add_or_reset]
    rewrites: Annotated[int, Turn(RESET), add_or_reset]
    regenerations: Annotated[int, Turn(RESET), add_or_reset]
    web_searches: Annotated[int, Turn(RESET), add_or_reset]
    model_calls: Annotated[int, Turn(RESET), add_or_reset]
    tokens_in: Annotated[int, Turn(RESET), add_or_reset]
    tokens_out: Annotated[int, Turn(RESET), add_or_reset]
    tokens_cached: Annotated[int, Turn(RESET), add_or_reset]
    steps: Annotated[list[str], Turn(RESET), extend_or_reset]
    """Nodes run this turn, in order."""
    notes: Annotated[list[str], Turn(RESET), extend_or_reset]
    """What degraded or failed this turn, in plain words."""
    judgments: Annotated[list[Judgment], Turn(RESET), extend_or_reset]
    """Judgments made this turn, in order (see Judgment)."""


class SubQuestionState(TypedDict):
    """Input of one parallel sub-question branch (sent with Send)."""

    sub_question: str
    """A part of the question, or the whole question (its own search, sent last)."""
    index: int


@cache
def _turn_starts() -> dict[str, Any]:
    """Read each State key's `Turn` value from its declaration."""
    hints = get_type_hints(State, include_extras=True)
    starts = {}
    for name, hint in hints.items():
        marks = [m for m in getattr(hint, "__metadata__", ()) if isinstance(m, Turn)]
        if marks:
            starts[name] = marks[0].start
    return starts


def fresh_turn() -> dict[str, Any]:
    """Return every per-turn key at its start value: the update that begins a new question."""
    return copy.deepcopy(_turn_starts())
