"""The typed values the graph's state holds: routes, sources, declines, searches, judgments.

Each is a TypedDict (or a Literal) so Studio shows it and mypy checks what nodes write; the state
itself (its keys, reducers and per-turn start values) is in schema/state.py.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from typing_extensions import TypedDict

Category = Literal["general", "simple", "complex", "realtime", "follow_up"]
Relevance = Literal["correct", "incorrect"]
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


class Route(TypedDict):
    """How the question was classified, and why."""

    category: Category
    """general, simple, complex, realtime or follow_up."""
    reason: str
    """Why, in a few words (the rule that matched, or the model's verdict)."""
    method: Literal["rule", "fitted", "model", "cache", "default"]
    """Which path decided: a rule, the relevance judge, the model, the cache, or the default."""


class Scored(TypedDict):
    """The relevance judge's probability for each source one search found, for its query."""

    query: str
    """The question the sources were scored for."""
    keys: list[str]
    """Each source's identity with its search signals (nodekit.grading.fingerprint), in order."""
    scores: list[float]
    """Each source's probability that the answer needs it, in the same order."""


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


class Link(TypedDict):
    """A source the entity graph or a named value brought in, and why."""

    title: str
    """Title of the document."""
    source: str
    """File path or other origin reference (as in Source)."""
    entities: list[str]
    """The entity keys that linked it: names the search started from or another source holds."""
    within: str
    """The value of a document field the question named that it was searched within
    ("doc_source: The Verge"); empty if none."""


class Hop(TypedDict):
    """One step of a multi-step search: what was searched and the bridge fact it found."""

    index: int
    """Position of the hop (0-based)."""
    query: str
    """The search query of this hop (the next hop's query is written from its finding)."""
    finding: str
    """The fact found, in a few words; empty when the sources gave none."""
    done: bool
    """Whether the facts found so far answer the question: the model's verdict, kept only when
    its finding is found in the sources."""
    source_keys: list[str]
    """Keys (doc_key) of the documents this hop retrieved, in rank order."""
    bridges: list[str]
    """Names this hop's sources hold that the question does not, which seed the next hop's
    search (the model's pick first; empty when the hops end here)."""
    links: list[Link]
    """The sources the entity graph ranked in this hop's search, each with its linking names."""


class SelfCheck(TypedDict):
    """Self-RAG verdict on the latest answer, by rules and a fitted judge (no model call)."""

    grounded: bool
    """Every sentence is supported by the sources it cites (the grounding check)."""
    answers_question: bool
    """The sources answer the question (the answerability judge, or declines 'never')."""
    feedback: str
    """What was wrong, fed back to the regeneration."""


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
    """What was decided, in a word or two (correct, incorrect, answer, decline, grounded, ...)."""
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
    links: list[Link]
    """The turn's sources the entity graph ranked, each with the names linking it to another."""
    answer_cache: Literal["off", "miss", "hit"]
    """Whether this answer came from the answer cache (0 model calls) or was written now."""
    support: float | None
    """How likely the sources state the answer, as assessed before writing (None: not assessed)."""
    judgments: list[Judgment]
    """Every judgment of the turn in order, each with its method and score."""


class TurnRules(TypedDict, total=False):
    """The budgets and switches a turn follows, taken from Context once, at intake.

    Nodes and edges read these, never the Context fields they come from, so an edge stays a pure
    function of the state and a checkpoint shows what its turn ran under. A missing budget spends
    nothing; a missing switch is off.
    """

    rewrite_budget: int
    """Query rewrites the turn may make (Context.max_rewrites)."""
    regeneration_budget: int
    """Answers the turn may write again (Context.max_regenerations)."""
    web_search_budget: int
    """Web searches the turn may make (Context.max_web_searches)."""
    hop_budget: int
    """Searches a multi-step question may make in sequence (Context.max_hops)."""
    checks_answers: bool
    """Check written answers against their sources (Context.answer_check is not 'off')."""
    declines_unsupported_answers: bool
    """Decline an answer still unsupported when its budget is spent (answer_check 'decline')."""
    declines_unlikely_answers: bool
    """Decline when the sources are unlikely to answer the question (declines 'when_unlikely')."""
    answers_general_questions: bool
    """Answer from the model's own knowledge what the documents do not (general_questions
    'answer')."""
    asks_to_clarify: bool
    """Ask back when a follow-up cannot be read on its own (Context.clarify)."""
    uses_answer_cache: bool
    """Look for (and keep) earlier answers to the same question (Context.answer_cache)."""


class Recall(TypedDict):
    """An earlier answer found for this question, and how."""

    output: dict[str, Any]
    """The output fields it was returned with (answer, sources, confidence, ...)."""
    question: str
    """The question it answered, as first asked (case, spacing and closing punctuation aside)."""
    revision: int
    """The knowledge-base revision it holds for."""
