"""The graph's typed state: a narrow input, the working state, and a narrow output."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, get_args

from adaptive_rag.core.failures import Failure
from adaptive_rag.core.language import Language
from adaptive_rag.schema.reducers import (
    RESET as RESET,
)
from adaptive_rag.schema.reducers import (
    add_or_reset,
    extend_or_reset,
    merge_documents,
    merge_sub_searches,
)
from langchain_core.documents import Document
from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict

Category = Literal["general", "simple", "complex", "realtime", "follow_up"]
Relevance = Literal["correct", "ambiguous", "incorrect"]
Shape = Literal["parallel", "sequential"]
"""How a complex question splits: independent parts, or hops where each needs the last's answer."""
GenerationMode = Literal["direct", "rag", "synthesis", "regenerate", "fallback", "none"]
DeclineReason = Literal[
    "no_documents",
    "no_knowledge_base",
    "no_relevant_documents",
    "not_in_sources",
    "unsupported",
    "empty_answer",
    "invalid_input",
    "needs_clarification",
]

Counter = Literal[
    "retrievals",
    "generations",
    "rewrites",
    "regenerations",
    "web_searches",
    "model_calls",
    "tokens_in",
    "tokens_out",
    "tokens_cached",
]
COUNTERS: tuple[Counter, ...] = get_args(Counter)
"""The run's counters: State fields that add up within a turn, reported in Diagnostics."""

REJECTED = "rejected_input"
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
"""Name on the messages of a turn whose input was refused; history leaves them out."""


class Route(TypedDict):
    """How the question was classified, and why."""

    category: Category
    """general, simple, complex, realtime or follow_up."""
    reason: str
    """Why, in a few words (the rule that matched, or the model's verdict)."""
    method: Literal["rule", "model", "cache", "default"]
    """Which path decided: a rule, the model, the cache, or the default."""


class Source(TypedDict):
    """A document the answer relied on, as shown to the user."""

    id: int
    """Citation number used in the answer, e.g. [1]."""
    title: str
    """Title of the document or web page."""
    source: str
    """File path, URL or other origin reference."""
    snippet: str
    """The first characters of the passage used."""
    origin: Literal["kb", "web"]
    """Knowledge base or web."""
    cited: bool
    """Whether the answer text cites it explicitly."""


class Decline(TypedDict):
    """Why no answer was given: the knowledge base does not answer, or the turn could not run."""

    reason: DeclineReason
    """no_documents, no_relevant_documents, not_in_sources, unsupported, empty_answer, ..."""
    detail: str
    """What was found or checked, in plain words, for people and logs."""


class SubSearch(TypedDict):
    """One parallel search of a complex question: a part it names, or the whole question."""

    index: int
    """Position of the sub-question (0-based); the whole question's own search comes last."""
    question: str
    """The query searched."""
    source_keys: list[str]
    """Keys (doc_key) of the documents it found, in rank order."""


class Hop(TypedDict):
    """One step of a multi-step search: what was searched and the bridge fact it found."""

    index: int
    """Position of the hop (0-based)."""
    query: str
    """The search query of this hop (the next hop's query is written from its finding)."""
    finding: str
    """The fact found, in a few words; empty when the sources gave none."""
    done: bool
    """Whether the facts found so far answer the question (the model's verdict)."""
    source_keys: list[str]
    """Keys (doc_key) of the documents this hop retrieved, in rank order."""


class SelfCheck(TypedDict):
    """Self-RAG verdict on the latest answer."""

    grounded: bool
    """Every claim is supported by the sources."""
    answers_question: bool
    """The answer addresses the question."""
    feedback: str
    """What was wrong, fed back to the regeneration."""
    parsed: bool
    """False when the checker's output could not be read (verdict is the safe default)."""


JudgeMethod = Literal["fitted", "model", "rule"]
"""How a judgment was made: a fitted model over signals, a prompt to the chat model, or a rule."""


class Judgment(TypedDict):
    """One judgment of the turn (relevance, answerability, grounding, shape) and its grounds."""

    node: str
    """The node that judged (grade_documents, assess, self_check, decompose, ...)."""
    method: JudgeMethod
    """fitted, model or rule."""
    score: float | None
    """The probability or share the verdict was read from (None when there is none)."""
    verdict: str
    """What was decided, in a word or two (correct, ambiguous, answer, decline, grounded, ...)."""
    detail: str
    """Why, for people: the fallback taken, the sentences without support, ..."""


class Diagnostics(TypedDict):
    """What the run cost and what went wrong, for callers and dashboards."""

    steps: list[str]
    retrievals: int
    generations: int
    rewrites: int
    regenerations: int
    web_searches: int
    model_calls: int
    tokens_in: int
    tokens_out: int
    tokens_cached: int
    """Of tokens_in, those a prefix cache served (llama.cpp's reuse, a provider's cached_tokens)."""
    notes: list[str]
    hops: list[Hop]
    """The multi-step path's searches and findings, in order (empty on other paths)."""
    answer_cache: Literal["off", "miss", "hit"]
    """Whether this answer came from the answer cache (0 model calls) or was written now."""
    support: float | None
    """How likely the sources state the answer, as assessed before writing (None: not assessed)."""
    judgments: list[Judgment]
    """Every judgment of the turn in order, each with its method and score."""


class TurnSettings(TypedDict, total=False):
    """What the edges need from Context, copied at intake (a missing budget spends nothing)."""

    max_rewrites: int
    max_regenerations: int
    max_web_searches: int
    max_hops: int
    answer_check: bool
    """Check written answers against their sources (answer_check is not 'off')."""
    decline_unsupported: bool
    """Decline an answer still unsupported when its budget is spent (answer_check 'decline')."""
    declines: bool
    """Decline when the sources are unlikely to answer the question (declines 'when_unlikely')."""
    clarify: bool
    answer_cache: bool
    """Look for (and keep) earlier answers to the same question."""


class Recall(TypedDict):
    """An earlier answer found for this question, and how."""

    output: dict[str, Any]
    """The output fields it was returned with (answer, sources, confidence, ...)."""
    question: str
    """The question it answered, as first asked (case, spacing and closing punctuation aside)."""
    revision: int
    """The knowledge-base revision it holds for."""


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
    answer: str
    """The final answer, with [n] citations into sources."""
    sources: list[Source]
    """What the answer relied on."""
    route: Route | None
    """The question's classification and why."""
    notices: list[str]
    """What the answer says about itself, as shown inside `answer` (from general knowledge, web
    unreachable, unverified): a client can show them apart, an eval can score without them."""
    confidence: float
    """0-1, from grading and self-check; low means check before trusting."""
    verified: bool
    """True only when the self-check passed; direct and fallback answers are unverified."""
    answerable: bool
    """False when the agent declined: the sources do not answer it (see `decline`)."""
    decline: Decline | None
    """Why the agent declined (set by the node that found out), or None when it answered."""
    language: Language
    """The question's language ('en' or 'zh'); the answer is written in it."""
    failures: Annotated[list[Failure], extend_or_reset]
    """What failed this turn (node, kind, message); the run went on without it."""
    diagnostics: Diagnostics
    """Steps taken and what they cost."""


class State(InputState, OutputState, total=False):
    """The working state of one question (per-turn fields are reset at intake)."""

    query: str
    """The question as asked this turn."""
    standalone: str
    """The question made standalone from history (equal to query on a first turn)."""
    search_query: str
    """The query the next retrieval or web search uses."""
    searched: str
    """A query whose knowledge-base results are already in `documents` (classify's probe)."""
    history_rewritten: bool
    """Whether the follow-up rewrite already ran this turn."""
    clarified: bool
    """Whether the user was already asked what the question refers to this turn."""
    clarification: str
    """The clarifying question returned as the answer (when the run cannot be resumed)."""
    error: str
    """Why the input was refused (empty, too long); empty when valid."""
    web_available: bool
    """Whether a web search can be attempted this turn."""
    settings: TurnSettings
    """Budgets and switches copied from Context at intake, so edge functions stay pure."""
    documents: Annotated[list[Document], merge_documents]
    """Documents gathered this turn (knowledge base and web)."""
    doc_scores: list[float]
    """Relevance score per document in `documents`, from the grader."""
    relevance: Relevance | None
    """CRAG verdict on the latest retrieval."""
    retrieval_confident: bool
    """Both search channels agreed on the top document (a signal for confidence)."""
    graded: bool
    """False when the grader's output could not be read (documents kept as relevant)."""
    sub_questions: list[str]
    """Sub-questions of a complex question."""
    sub_searches: Annotated[list[SubSearch], merge_sub_searches]
    """What each sub-question's search found, in order (fused before writing)."""
    shape: Shape | None
    """How decompose split a complex question (None until it has)."""
    hops: list[Hop]
    """Searches of the multi-step path so far, each with its finding."""
    next_query: str
    """The query of the next hop, written from the findings so far ('' when none)."""
    mode: GenerationMode
    """How the latest answer was produced."""
    check: SelfCheck | None
    """Self-RAG verdict on the latest answer."""
    support: float | None
    """How likely the sources state the answer (the model's odds of yes, before writing)."""
    answer_features: dict[str, float]
    """What the answerability judge read of the latest answer (kept for refitting it from runs)."""
    best_answer: str
    """The best checked answer so far, returned if the budget runs out."""
    best_score: int
    """Score of best_answer: 2 if grounded, plus 1 if it answers the question."""
    best_sources: list[Source]
    """The sources best_answer cites."""
    answer_id: str
    """Message id of the latest answer's streamed tokens; the final AI message keeps it."""
    answer_logprob: float | None
    """Mean log-probability of the latest answer's tokens (None when the model gave none)."""
    best_id: str
    """Message id of best_answer's tokens."""
    recalled: Recall | None
    """An earlier answer to the same question (answer cache), returned instead of a new run."""
    rejected: list[Document]
    """Documents the grader judged irrelevant; used only when nothing better was found."""
    web_status: str
    """'', 'ok', or why the web was not reached."""
    retrievals: Annotated[int, add_or_reset]
    generations: Annotated[int, add_or_reset]
    rewrites: Annotated[int, add_or_reset]
    regenerations: Annotated[int, add_or_reset]
    web_searches: Annotated[int, add_or_reset]
    model_calls: Annotated[int, add_or_reset]
    tokens_in: Annotated[int, add_or_reset]
    tokens_out: Annotated[int, add_or_reset]
    tokens_cached: Annotated[int, add_or_reset]
    steps: Annotated[list[str], extend_or_reset]
    """Nodes run this turn, in order."""
    notes: Annotated[list[str], extend_or_reset]
    """What degraded or failed this turn, in plain words."""
    judgments: Annotated[list[Judgment], extend_or_reset]
    """Judgments made this turn, in order (see Judgment)."""


class SubQuestionState(TypedDict):
    """Input of one parallel sub-question branch (sent with Send)."""

    sub_question: str
    index: int
    retrieve_only: NotRequired[bool]
    """Search without answering (the whole question's own search)."""
