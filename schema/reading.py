"""Reading the state: the conversation without refused turns, history, verdicts, hops as text."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from typing import Literal

from adaptive_rag.schema.state import REJECTED, State
from adaptive_rag.schema.values import Hop, Link, SelfCheck
from langchain_core.documents import Document
from langchain_core.messages import BaseMessage


def from_web(doc: Document) -> bool:
    """Whether a source came from the web search, not the knowledge base."""
    return doc.metadata.get("origin") == "web"


def conversation(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """Return the thread's messages without refused turns (stand-ins and error replies)."""
    return [m for m in messages if getattr(m, "name", None) != REJECTED]


Switch = Literal[
    "checks_answers",
    "declines_unsupported_answers",
    "declines_unlikely_answers",
    "answers_general_questions",
    "asks_to_clarify",
    "uses_answer_cache",
]
Budget = Literal["rewrite_budget", "regeneration_budget", "web_search_budget", "hop_budget"]


def rule_on(state: State, name: Switch) -> bool:
    """Return one of the turn's switches (schema.values.TurnRules; off if missing)."""
    return bool((state.get("rules") or {}).get(name, False))


def budget(state: State, name: Budget) -> int:
    """Return one of the turn's budgets (schema.values.TurnRules; 0 if missing: spend nothing)."""
    return int((state.get("rules") or {}).get(name, 0))


def can_search_web(state: State) -> bool:
    """Whether the web is reachable and another web search fits the budget."""
    return bool(state.get("web_available")) and state.get("web_searches", 0) < budget(
        state, "web_search_budget"
    )


def has_history(state: State) -> bool:
    """Whether the conversation holds earlier answered turns before this question."""
    return len(conversation(state.get("messages") or [])) > 1


def verdict_score(check: SelfCheck) -> int:
    """Rank a self-check verdict: grounded counts twice as much as answering the question.

    The ranks finalize settles by: 0, ANSWERED, GROUNDED, PASSED.
    """
    return 2 * int(check["grounded"]) + int(check["answers_question"])


ANSWERED = verdict_score(SelfCheck(grounded=False, answers_question=True, feedback=""))
"""verdict_score of an answer that answers the question without support for every sentence."""
GROUNDED = verdict_score(SelfCheck(grounded=True, answers_question=False, feedback=""))
"""verdict_score of a grounded answer that does not answer the question (a decline).

Below it, answer_check 'decline' declines the answer; an attempt that scored it and outlasts
the later ones ends the turn in its decline.
"""
PASSED = verdict_score(SelfCheck(grounded=True, answers_question=True, feedback=""))
"""verdict_score of an answer that passed both questions: it outlasts a later failed attempt."""


def answered_before(state: State) -> bool:
    """Whether an earlier attempt of this turn was judged to answer the question (it is kept)."""
    score = state.get("best_score", -1)
    return bool(state.get("best_answer")) and score >= 0 and score % 2 == 1


def describe_hops(hops: Sequence[Hop]) -> str:
    """List hops as numbered 'query -> finding' lines, as the hop and answer prompts show them."""
    return "\n".join(
        f"{h['index'] + 1}. {h['query']} -> {h['finding'] or '(not found)'}" for h in hops
    )


def links_of(docs: Sequence[Document], searched: Collection[str] = ()) -> list[Link]:
    """Return the documents the entity graph or a named value brought in, and what did.

    A linking name is one the walk went through that the search started from (`searched`: the
    query's entity keys and a hop's bridges) or that another of the documents holds too; a name
    of a document's own links it to nothing (as when the walk began there). `within` is the
    named value (knowledge.facets) a document was found in, if any.
    """
    held = [[str(n) for n in (d.metadata or {}).get("graph_entities") or []] for d in docs]
    counts = Counter(name for names in held for name in set(names))
    links = []
    for doc, names in zip(docs, held, strict=True):
        meta = doc.metadata or {}
        linking = [name for name in names if counts[name] > 1 or name in searched]
        linking = linking if meta.get("graph_rank") else []
        within = str(meta.get("named_value") or "") if meta.get("facet_rank") else ""
        if linking or within:
            title = str(meta.get("title") or meta.get("source") or meta.get("id") or "untitled")
            source = str(meta.get("source") or "")
            links.append(Link(title=title, source=source, entities=linking, within=within))
    return links
