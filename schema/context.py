"""Runtime context: the per-run settings Studio shows and every node reads.

Fields run top-down as Studio's form shows them: models; knowledge base and retrieval; loops and
budgets; the answer; access; the cache. A setting that was removed is refused by name, with what
replaced it (`REMOVED`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from typing import Annotated, Literal, get_args, get_origin, get_type_hints

from adaptive_rag.core.access import Reader
from adaptive_rag.core.environment import default_collection

_LLM = {"__template_metadata__": {"kind": "llm"}}
_EMBEDDINGS = {"__template_metadata__": {"kind": "embeddings"}}


def _about(text: str) -> dict[str, str]:
    """Return a field's metadata: the description Studio shows beside it."""
    return {"description": text}


@dataclass(kw_only=True)
class Context:
    """Settings for one run of the agent; all fields have safe defaults."""

    # Models
    chat_model: Annotated[str, _LLM] = field(
        default="auto",
        metadata=_about(
            "Model that writes answers, as provider:model (e.g. openai:gpt-4o-mini). Default"
            " 'auto': ADAPTIVE_RAG_CHAT_MODEL, else OpenAI when OPENAI_API_KEY or OPENAI_BASE_URL"
            " is set, else the"
            " embedded model."
        ),
    )
    fast_model: Annotated[str, _LLM] = field(
        default="auto",
        metadata=_about(
            "Model for the short calls (classify and its translation of a question into the"
            " knowledge base's language, assess, hop), as provider:model."
            " Default 'auto': the same choice as chat_model."
        ),
    )
    embedding_model: Annotated[str, _EMBEDDINGS] = field(
        default="auto",
        metadata=_about(
            "Embedding model of the knowledge base, as provider:model; a collection keeps the one"
            " it was built with. Default 'auto': the embedded multilingual e5."
        ),
    )

    # Knowledge base and retrieval
    kb_path: str = field(
        default="",
        metadata=_about(
            "Folder of the on-disk knowledge base. Default empty: the user data directory, or a"
            " Chroma server when CHROMA_HOST/CHROMA_PORT are set."
        ),
    )
    collection: str = field(
        default_factory=default_collection,
        metadata=_about(
            "Knowledge-base collection to search. Default: ADAPTIVE_RAG_COLLECTION, else 'default'"
            " (the one `adaptive-rag ingest` and `make demo` fill)."
        ),
    )
    kb_description: str = field(
        default="the documents ingested into this knowledge base",
        metadata=_about(
            "One line saying what the knowledge base covers; the classifier sends questions"
            " about it to retrieval. Default: 'the documents ingested into this knowledge base'."
        ),
    )
    k: int = field(
        default=4,
        metadata=_about("Documents retrieved per search, 1-20. Default 4."),
    )
    metadata_filter: str = field(
        default="",
        metadata=_about(
            'Search only chunks whose metadata equal this JSON object, e.g. {"title": "Returns"}.'
            " Default empty: everything."
        ),
    )
    small_to_big: bool = field(
        default=False,
        metadata=_about("Return each hit's whole section instead of the chunk. Default off."),
    )
    graph: Literal["on", "off"] = field(
        default="on",
        metadata=_about(
            "Entity graph search: 'on' (default) also ranks chunks by the names they share with"
            " the top hits and the question (the bridge of a multi-hop question; no model call);"
            " 'off' searches by keywords and meaning only."
        ),
    )
    web_search: bool = field(
        default=True,
        metadata=_about(
            "Search the web (Tavily, needs TAVILY_API_KEY) for real-time questions and when the"
            " knowledge base has nothing relevant. Default on."
        ),
    )
    complex_shape: Literal["auto", "parallel", "sequential"] = field(
        default="auto",
        metadata=_about(
            "How a complex question is searched: 'auto' (default) by rules; 'parallel' searches"
            " the things it compares beside it; 'sequential' hops (the inventor of X, then their"
            " birthplace). Both ask the model which are complex."
        ),
    )

    # Loops and budgets
    history_turns: int = field(
        default=3,
        metadata=_about(
            "Past turns (question and answer) read to rewrite a follow-up, 0-50. Default 3."
        ),
    )
    max_rewrites: int = field(
        default=1,
        metadata=_about("Query rewrites for a new search, per question, 0-10. Default 1."),
    )
    max_regenerations: int = field(
        default=1,
        metadata=_about(
            "Answers written again after a failed check (or an empty or wrong-language answer,"
            " or an answer to an open question that says the sources do not say), 0-10. Default 1."
        ),
    )
    max_web_searches: int = field(
        default=1,
        metadata=_about("Web searches per question, 0-10. Default 1."),
    )
    max_hops: int = field(
        default=3,
        metadata=_about(
            "Searches of the multi-step path, each written from the facts found so far, 1-6."
            " Default 3."
        ),
    )

    # Answer
    answer_check: Literal["mark", "decline", "off"] = field(
        default="mark",
        metadata=_about(
            "Checking answers against their sources: 'mark' (default) marks one still unsupported"
            " unverified, but declines it for a question about the knowledge base's own things;"
            " 'decline' always declines it; 'off' skips."
        ),
    )
    declines: Literal["when_unlikely", "never"] = field(
        default="when_unlikely",
        metadata=_about(
            "'when_unlikely' (default) declines when the judge finds the sources unlikely to"
            " answer, the answer says they do not, or a yes/no answer's sources lack what is"
            " asked; 'never' always returns the answer."
        ),
    )
    general_questions: Literal["answer", "decline"] = field(
        default="answer",
        metadata=_about(
            "Questions the documents do not answer: 'answer' (default) answers one the model"
            " knows, labelled, unless it is about the knowledge base's own things; 'decline'"
            " declines them all."
        ),
    )
    clarify: bool = field(
        default=True,
        metadata=_about(
            "Ask what a question refers to when it points at a conversation that is not there"
            " (an interrupt on threads, else the answer). Default on."
        ),
    )
    sources_in_messages: bool = field(
        default=True,
        metadata=_about(
            "List the cited sources under the answer in the chat message, for UIs that show"
            " messages only (the `sources` output holds them either way). Default on."
        ),
    )

    # Access
    user: str = field(
        default="",
        metadata=_about(
            "Who is asking (a user or tenant id): public documents, theirs and their groups' are"
            " searched. A server with authentication sets it from the token. Default: anonymous."
        ),
    )
    groups: str = field(
        default="",
        metadata=_about(
            "Comma-separated groups of the asker: documents shared with one of them are searched"
            " too. A server with authentication sets them from the token. Default: none."
        ),
    )

    # Cache
    answer_cache: bool = field(
        default=True,
        metadata=_about(
            "Return the earlier answer to a first question asked again in the same words, over"
            " the same knowledge base, settings and code, with no model call. Default on."
        ),
    )

    def __post_init__(self) -> None:
        """Reject settings that would break a run, with a message that names the field."""
        _check_range("k", self.k, 1, 20)
        _check_range("history_turns", self.history_turns, 0, 50)
        _check_range("max_rewrites", self.max_rewrites, 0, 10)
        _check_range("max_regenerations", self.max_regenerations, 0, 10)
        _check_range("max_web_searches", self.max_web_searches, 0, 10)
        _check_range("max_hops", self.max_hops, 1, 6)
        for name, allowed in choices().items():
            if getattr(self, name) not in allowed:
                value = getattr(self, name)
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")
        if self.metadata_filter.strip():
            try:
                value = json.loads(self.metadata_filter)
            except json.JSONDecodeError as exc:
                raise ValueError(f"metadata_filter is not JSON: {exc.msg}") from exc
            if not isinstance(value, dict):
                raise ValueError("metadata_filter must be a JSON object")
        self.reader()  # a malformed user or group name is refused here, not at search time
        for name in ("chat_model", "fast_model", "embedding_model", "collection"):
            if not str(getattr(self, name)).strip():
                raise ValueError(f"{name} must not be empty")

    def reader(self) -> Reader:
        """Return who is asking, as the knowledge base's access rule takes it."""
        return Reader.of(self.user, self.groups.split(","))


@cache
def choices() -> dict[str, tuple[str, ...]]:
    """Return the values each enumerated setting takes, read from its Literal annotation."""
    hints = get_type_hints(Context, include_extras=True)
    return {name: get_args(hint) for name, hint in hints.items() if get_origin(hint) is Literal}


_CHECK = "use answer_check ('mark', 'decline' or 'off')"
_DECLINES = "use declines ('when_unlikely' or 'never')"
_JUDGE_THRESHOLDS = "the relevance judge's thresholds ship with its fitted weights"
_ROUTER = "classify routes by rules and the fast model; experiments/router_fit.py fits the"

REMOVED: dict[str, str] = {
    "allow_general_knowledge": "use general_questions ('answer' or 'decline')",
    "self_check": _CHECK,
    "check_confident_answers": _CHECK,
    "check_below": _CHECK,
    "skip_checks_when_confident": "sources are always judged now (the judge makes no model call)",
    "correct_threshold": _JUDGE_THRESHOLDS,
    "incorrect_threshold": _JUDGE_THRESHOLDS,
    "decline_below": _DECLINES,
    "decline_when_not_found": _DECLINES,
    "router": f"{_ROUTER} learned router as an experiment",
    "router_weights": f"{_ROUTER} learned router as an experiment, its fit beside the runs",
    "multi_query": "retrieval searches the question as asked (extra queries found no more)",
    "hyde": "retrieval searches the question as asked (a written passage found no more)",
    "answer_sub_questions": "a complex question's parts steer retrieval and one answer is written",
    "max_sub_questions": "a comparison's parts come from a rule: at most the two things it names",
    "answer_cache_similarity": "the answer cache matches the same words only",
    "answer_cache_ttl": "a cached answer is kept a day, or until the knowledge base changes",
    "max_question_chars": "questions are limited to 4000 characters",
    "web_results": "a web search reads 3 results",
}
"""Settings an older client or a saved assistant may still send, and what replaces each."""


def removed_problem(settings: object) -> str:
    """Say which removed settings a mapping holds and what replaces them ('' when none)."""
    if not isinstance(settings, dict):
        return ""
    return "; ".join(
        f"setting {name!r} was removed: {REMOVED[name]} (CHANGELOG.md)"
        for name in settings
        if name in REMOVED
    )


def _check_range(name: str, value: float, low: float, high: float) -> None:
    """Raise a ValueError naming the field when value lies outside [low, high]."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a number, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}, got {value}")
