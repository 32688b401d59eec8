"""Runtime context: the per-run settings Studio shows and every node reads."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, fields, replace
from functools import cache
from importlib import metadata, resources
from typing import Annotated, Any, Literal, get_args, get_origin, get_type_hints

from adaptive_rag.core.access import Reader
from adaptive_rag.core.environment import default_collection
from langgraph.config import get_config
from langgraph.runtime import Runtime

_LLM = {"__template_metadata__": {"kind": "llm"}}
_EMBEDDINGS = {"__template_metadata__": {"kind": "embeddings"}}


@dataclass(kw_only=True)
class Context:
    """Settings for one run of the agent; all fields have safe defaults."""

    chat_model: Annotated[str, _LLM] = field(
        default="auto",
        metadata={
            "description": "Model that writes answers, as provider:model (e.g. openai:gpt-4o-mini)."
            " 'auto' picks OpenAI when OPENAI_API_KEY is set, else the embedded local model."
        },
    )
    fast_model: Annotated[str, _LLM] = field(
        default="auto",
        metadata={
            "description": "Smaller model for classify, grade and self-check (provider:model);"
            " 'auto' uses the same choice as chat_model."
        },
    )
    embedding_model: Annotated[str, _EMBEDDINGS] = field(
        default="auto",
        metadata={"description": "Embedding model for the knowledge base (provider:model)."},
    )
    kb_path: str = field(
        default="",
        metadata={
            "description": "Folder of the on-disk knowledge base; empty means the user data"
            " directory (or CHROMA_HOST/CHROMA_PORT for a Chroma server)."
        },
    )
    collection: str = field(
        default_factory=default_collection,
        metadata={
            "description": "Knowledge-base collection to search; empty or unset means"
            " ADAPTIVE_RAG_COLLECTION, else 'default' (the one `adaptive-rag ingest` and"
            " `make demo` fill)."
        },
    )
    kb_description: str = field(
        default="the documents ingested into this knowledge base",
        metadata={
            "description": "One line saying what the knowledge base covers; helps the"
            " classifier send questions about it to retrieval."
        },
    )
    k: int = field(
        default=4,
        metadata={"description": "Documents retrieved per search (1-20)."},
    )
    metadata_filter: str = field(
        default="",
        metadata={
            "description": "Only search chunks whose metadata match this JSON object, e.g."
            ' {"title": "Returns"}; empty searches everything.'
        },
    )
    user: str = field(
        default="",
        metadata={
            "description": "Who is asking (a user or tenant id): only public documents, theirs"
            " and their groups' are searched. On a server with authentication the signed-in"
            " identity replaces whatever a request sends here."
        },
    )
    groups: str = field(
        default="",
        metadata={
            "description": "Comma-separated groups of the asker: documents shared with one of"
            " them are searched too. On a server with authentication the token's groups"
            " replace it."
        },
    )
    small_to_big: bool = field(
        default=False,
        metadata={"description": "Return each hit's whole section instead of the chunk."},
    )
    graph: Literal["on", "off"] = field(
        default="on",
        metadata={
            "description": "Entity graph search: 'on' also ranks chunks by the names they share"
            " with the top hits and the question (the bridge of a multi-hop question; no model"
            " call), 'off' searches by keywords and meaning only. Default 'on'."
        },
    )
    multi_query: bool = field(
        default=False,
        metadata={
            "description": "Search with two extra model-written queries and fuse the results"
            " (one more model call per retrieval)."
        },
    )
    hyde: bool = field(
        default=False,
        metadata={
            "description": "HyDE: also search with a model-written hypothetical answer passage"
            " (one more model call per retrieval)."
        },
    )
    history_turns: int = field(
        default=3,
        metadata={"description": "Past turns (question + answer) used to rewrite a follow-up."},
    )
    max_rewrites: int = field(
        default=1,
        metadata={"description": "Budget: query rewrites for a new search, per question."},
    )
    max_regenerations: int = field(
        default=1,
        metadata={"description": "Budget: regenerations after a failed groundedness check."},
    )
    max_web_searches: int = field(
        default=1,
        metadata={"description": "Budget: web searches per question."},
    )
    max_sub_questions: int = field(
        default=3,
        metadata={"description": "Budget: sub-questions a complex question splits into (2-4)."},
    )
    max_hops: int = field(
        default=3,
        metadata={
            "description": "Budget: searches of the multi-step path, each written from the"
            " facts the previous ones found (1-6)."
        },
    )
    router: Literal["rules+model", "learned"] = field(
        default="rules+model",
        metadata={
            "description": "Who routes a question no rule settles: 'rules+model' (the fast model"
            " picks general, simple or complex) or 'learned' (a classifier over the question's"
            " embedding, fitted by `adaptive-rag eval router`; no model call)."
        },
    )
    router_weights: str = field(
        default="",
        metadata={
            "description": "Weights file for the 'learned' router (empty: the package's, shipped"
            " only if it beat rules+model on held-out folds). Without weights it routes as"
            " rules+model and says so in the route's reason."
        },
    )
    complex_shape: Literal["auto", "parallel", "sequential"] = field(
        default="auto",
        metadata={
            "description": "How complex questions are searched: 'parallel' (independent parts,"
            " e.g. comparisons), 'sequential' (hops that follow a bridge: the inventor of X,"
            " then where they were born), or 'auto' (rules, then the model, decide per question)."
        },
    )
    answer_sub_questions: bool = field(
        default=False,
        metadata={
            "description": "Answer each sub-question before synthesis (one model call each); "
            "off: sub-questions only steer retrieval (measured better on a small model)."
        },
    )
    web_search: bool = field(
        default=True,
        metadata={"description": "Allow web search (needs TAVILY_API_KEY)."},
    )
    web_results: int = field(
        default=3,
        metadata={"description": "Web results fetched per web search (1-10)."},
    )
    answer_check: Literal["mark", "decline", "off"] = field(
        default="mark",
        metadata={
            "description": "How a written answer is checked against its sources (by rules, no"
            " model call; its citations are repaired either way): 'mark' returns an answer still"
            " unsupported after max_regenerations marked unverified, 'decline' declines it, 'off'"
            " skips the check. Default 'mark'."
        },
    )
    declines: Literal["when_unlikely", "never"] = field(
        default="when_unlikely",
        metadata={
            "description": "'when_unlikely' declines (not_in_sources) when the fitted judge finds"
            " it unlikely that the sources answer the question; 'never' always returns the answer."
            " Default 'when_unlikely'."
        },
    )
    allow_general_knowledge: bool = field(
        default=False,
        metadata={
            "description": "When the knowledge base has nothing relevant, answer from the model's"
            " general knowledge (marked as such) instead of saying the knowledge base does not"
            " answer it."
        },
    )
    clarify: bool = field(
        default=True,
        metadata={
            "description": "Ask what a question refers to when it points at a conversation that"
            " is not there (a LangGraph interrupt on threads; otherwise asked as the answer)."
        },
    )
    sources_in_messages: bool = field(
        default=True,
        metadata={
            "description": "List the cited sources under the answer in the chat message, for chat"
            " UIs that show messages only (the `sources` output holds them either way)."
        },
    )
    answer_cache: bool = field(
        default=True,
        metadata={
            "description": "Return the earlier answer to a first question asked before (the same"
            " words, or answer_cache_similarity alike) over the same knowledge-base revision and"
            " settings, with no model call; ingest and delete forget them."
        },
    )
    answer_cache_ttl: int = field(
        default=86400,
        metadata={"description": "Seconds a cached answer is returned (1-31536000)."},
    )
    answer_cache_similarity: float = field(
        default=1.0,
        metadata={
            "description": "How alike (cosine of the question embeddings) another question must be"
            " to get its cached answer; 1.0 returns it for the same words only (case, width,"
            " spacing and closing punctuation aside)."
        },
    )
    max_question_chars: int = field(
        default=4000,
        metadata={"description": "Longest question accepted, in characters."},
    )

    def __post_init__(self) -> None:
        """Reject settings that would break a run, with a message that names the field."""
        _check_range("k", self.k, 1, 20)
        _check_range("history_turns", self.history_turns, 0, 50)
        _check_range("max_rewrites", self.max_rewrites, 0, 10)
        _check_range("max_regenerations", self.max_regenerations, 0, 10)
        _check_range("max_web_searches", self.max_web_searches, 0, 10)
        _check_range("max_sub_questions", self.max_sub_questions, 2, 4)
        _check_range("max_hops", self.max_hops, 1, 6)
        for name, allowed in choices().items():
            if getattr(self, name) not in allowed:
                value = getattr(self, name)
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")
        _check_range("web_results", self.web_results, 1, 10)
        _check_range("max_question_chars", self.max_question_chars, 1, 1_000_000)
        _check_range("answer_cache_ttl", self.answer_cache_ttl, 1, 31_536_000)
        _check_range("answer_cache_similarity", self.answer_cache_similarity, 0.5, 1.0)
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


REMOVED: dict[str, str] = {
    "self_check": "use answer_check ('mark', 'decline' or 'off')",
    "check_confident_answers": "use answer_check ('mark', 'decline' or 'off')",
    "check_below": "use answer_check ('mark', 'decline' or 'off')",
    "skip_checks_when_confident": "sources are always judged now (the judge makes no model call)",
    "correct_threshold": "the relevance judge's thresholds ship with its fitted weights",
    "incorrect_threshold": "the relevance judge's thresholds ship with its fitted weights",
    "decline_below": "use declines ('when_unlikely' or 'never')",
    "decline_when_not_found": "use declines ('when_unlikely' or 'never')",
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


NOT_SHAPING_ANSWERS = frozenset(
    {"answer_cache", "answer_cache_ttl", "answer_cache_similarity", "max_question_chars"}
)
"""Context fields that never change what answer a question gets."""


_WRITERS = ("prompts", "core", "nodes", "graph", "knowledge", "providers", "schema")
"""The packages whose code shapes an answer (its prompts, nodes, rules, maps and weights)."""


@cache
def answer_writer() -> str:
    """Name the code an answer was written by: the version, and the source, maps and weights.

    A cached answer from another release, or from a changed node, rule, prompt or map, would return
    a stale text or confidence (session 13's demo recalled an answer a new rule rewrites).
    """
    digest = hashlib.sha256(_version().encode())
    for package in _WRITERS:
        folder = resources.files(f"adaptive_rag.{package}")
        items = [*folder.iterdir()]
        items += [i for d in items if d.is_dir() and d.name == "weights" for i in d.iterdir()]
        for item in sorted(items, key=lambda i: str(i)):
            if item.name.endswith((".py", ".json")):
                digest.update(f"{package}/{item.name}".encode() + b"\0" + item.read_bytes())
    return digest.hexdigest()[:16]


def _version() -> str:
    """Return the installed package's version ("unknown" when run from an uninstalled tree)."""
    try:
        return metadata.version("adaptive-rag")
    except metadata.PackageNotFoundError:
        return "unknown"


def answer_scope(ctx: Context) -> str:
    """Name the settings and code an answer was written under: a cached answer holds for these."""
    shaping = {
        f.name: getattr(ctx, f.name) for f in fields(ctx) if f.name not in NOT_SHAPING_ANSWERS
    }
    shaping["__writer__"] = answer_writer()
    return hashlib.sha256(json.dumps(shaping, sort_keys=True).encode()).hexdigest()[:16]


def _check_range(name: str, value: float, low: float, high: float) -> None:
    """Raise a ValueError naming the field when value lies outside [low, high]."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a number, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}, got {value}")


def context_of(runtime: Runtime[Any] | None) -> Context:
    """Return the run's Context, whatever a host or the server passed (or nothing).

    On LangGraph Server with authentication, who is asking comes from the signed-in user,
    never from the request's context.
    """
    try:
        configurable = get_config().get("configurable") or {}
    except RuntimeError:  # called outside a run
        configurable = {}
    ctx = runtime.context if runtime is not None else None
    names = {f.name for f in fields(Context)}
    if isinstance(ctx, dict):
        removed = removed_problem(ctx)
        if removed:
            raise ValueError(removed)
        ctx = Context(**{key: value for key, value in ctx.items() if key in names})
    elif not isinstance(ctx, Context):
        removed = removed_problem(configurable)
        if removed:
            raise ValueError(removed)
        # None, or a parent graph's own context (embedded as a subgraph): Context fields set in
        # config.configurable apply, as LangGraph Server applies them (invalid ones raise)
        ctx = Context(**{key: value for key, value in configurable.items() if key in names})
    info = getattr(runtime, "server_info", None)
    signed_in = info.user if info is not None and info.user is not None else None
    signed_in = signed_in or configurable.get("langgraph_auth_user")
    if signed_in is None:
        return ctx
    if isinstance(signed_in, dict):
        claims = signed_in
    elif hasattr(signed_in, "items"):  # the server's user proxy
        claims = dict(signed_in.items())
    else:
        claims = {"identity": getattr(signed_in, "identity", "")}
    user = claims.get("reader", claims.get("identity", ""))
    groups = claims.get("groups") or []
    return replace(ctx, user=str(user), groups=",".join(str(g) for g in groups))
