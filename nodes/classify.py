"""Classify: decide how much retrieval a question deserves.

Rules first; then one search, judged by the fitted relevance judge: a likely source means the
knowledge base holds the question, so it is looked up with no model call; a question with a word
that often asks about the present ("latest", "news", "目前") is real-time only when the knowledge
base holds no likely source for it, and a definition ("What is a …", "什么是…") is general
knowledge when the knowledge base holds no likely source for it or it asks what a term means and
the knowledge base has no page on the term itself (a page that only uses it does not count). A
question in another language than most of the knowledge base that the search found no likely
source for is translated by the fast model and searched once more (nodekit.across). The model
routes only what none of these settles, and, when `complex_shape` forces a shape, says whether a
question the search settled is complex.
"""

from __future__ import annotations

import re

from adaptive_rag.core.judges import defines_terms
from adaptive_rag.core.question import (
    general_form,
    has_parts,
    length,
    names_an_entity,
    nested_reference,
    small_talk,
)
from adaptive_rag.core.text import language_of
from adaptive_rag.nodekit.across import Across, search_across
from adaptive_rag.nodekit.calling import ask, note, progress, search_for
from adaptive_rag.nodekit.grading import fingerprint, judge_probe, judge_sources, split_kept
from adaptive_rag.nodekit.owning import why_owned
from adaptive_rag.prompts import classify as prompts
from adaptive_rag.providers.chat import resolve_model_spec
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.reading import has_history, rule_on
from adaptive_rag.schema.state import RESET, State
from adaptive_rag.schema.updates import Update
from adaptive_rag.schema.values import Category, Route, Scored
from adaptive_rag.services import Services
from langchain_core.documents import Document

# Words that tie the answer to the present moment: what is true now, not what a document says.
# "today" only in lower case or first: "USA Today" names a publisher.
_NOW = re.compile(
    r"(?-i:\btoday\b)|^\s*today\b|\b(tonight|right now|this (week|morning|month)"
    r"|(latest|breaking) (?-i:news)|live score)\b|今天|今日|实时",
    re.IGNORECASE,
)
# Words that often ask about the present but also describe what a document states ("her latest
# book", "news publishers", "weather-affected events", "currently plays for", "目前仅存"): such a
# question is looked up when the knowledge base holds a likely source, else it is real-time.
# "news" only in lower case: "Fox News", "Sporting News" name a publisher, not today's news.
_RECENT = re.compile(
    r"\b(latest|breaking|currently|(?-i:news)|weather|forecast|stock price|share price"
    r"|exchange rate)\b|现在|目前|最新|新闻|天气|股价|汇率|比分",
    re.IGNORECASE,
)
GENERAL_MAX_WORDS = 8
_FOLLOW_UP = re.compile(
    r"^\s*(and|also|what about|how about|why|so)\b|\b(it|its|they|them|their|this|that|these"
    r"|those|he|she|him|her|the other|the same|one)\b|它|他|她|这个|那个|这些|那些|其|呢[?？]?\s*$"
    r"|^\s*(那|还有|那么)",
    re.IGNORECASE,
)


_DANGLING = re.compile(
    r"^\s*(and|so|also)?\s*(what|how) about"
    r" (it|that|this|them|those|the other( one)?|that one)\s*[?？]?\s*$"
    r"|^\s*(and|also) (it|that|them)\b"
    r"|^\s*(那|它|这个|那个|另一个|另外一个)[^\s]{0,6}[吗呢？?]\s*$",
    re.IGNORECASE,
)


def classify_by_rules(
    question: str, has_history: bool, follow_up: bool = True
) -> tuple[Category, str] | None:
    """Return (category, reason) when a cheap rule is sure, else None.

    follow_up=False skips the follow-up rules (the question was already rewritten or clarified).
    """
    if follow_up and not has_history and _DANGLING.match(question):
        return "follow_up", "refers to an earlier conversation that is not there"
    talk = small_talk(question)
    if talk in ("greeting", "about", "arithmetic"):
        return "general", talk
    if follow_up and has_history and (_FOLLOW_UP.search(question) or len(question.split()) <= 4):
        return "follow_up", "refers to the conversation"
    if _NOW.search(question):
        return "realtime", "asks about something that changes daily"
    if talk == "translation":
        return "general", talk
    if has_parts(question) or question.count("?") + question.count("？") > 1:
        return "complex", "compares or combines several things"
    if nested_reference(question):
        return "complex", "names something by a fact that must be looked up first"
    return None


def parse_category(text: str) -> Category | None:
    """Read the first category word in a model's reply."""
    found = re.search(r"general|simple|complex|realtime|real-time", text.lower())
    if not found:
        return None
    word = found.group(0).replace("-", "")
    return word  # type: ignore[return-value]


def classify(state: State, ctx: Context, services: Services) -> Update:
    """Classify the standalone question; on any doubt or failure, choose retrieval."""
    update = _classify(state, ctx, services)
    progress({"step": "classify", **(update.get("route") or {})})
    return update


def _classify(state: State, ctx: Context, services: Services) -> Update:
    """Decide the route: rules, then the knowledge base's answer, then the fast model."""
    question = state.get("standalone") or state.get("query") or ""
    settled = bool(state.get("history_rewritten") or state.get("clarified"))
    update: Update = {}
    ruled = classify_by_rules(question, has_history(state), follow_up=not settled)
    if ruled:
        update["route"] = Route(category=ruled[0], reason=ruled[1], method="rule")
        if ruled[0] == "general":  # the only general verdicts the rules give are small talk
            update["talk"] = small_talk(question)
        return update
    looked_up, absent = _probe(question, ctx, services, update)
    recent = _RECENT.search(question)
    if recent and not looked_up:
        said = recent.group(0)
        reason = f"asks about something recent ({said!r}) the knowledge base does not hold"
        update["route"] = Route(category="realtime", reason=reason, method="rule")
        _without_the_probe(update)
        return update
    owned = update.get("owned") or ""
    language = state.get("language") or language_of(question)
    answers_general = rule_on(state, "answers_general_questions")
    if not owned and answers_general and defines_terms(question, language):
        # what any encyclopedia says, though a document uses the term: asked of the model
        reason = "asks what terms mean, and names nothing of the knowledge base's"
        update["route"] = Route(category="general", reason=reason, method="rule")
        _without_the_probe(update)
        return update
    if absent and not owned:  # asked in another language than the pages': asked in theirs
        across = search_across(question, language, ctx, services, update)
        if across is not None:
            owned = across.owned
            update["owned"] = owned
            looked_up = _found_across(question, across, update)
            absent = looked_up is None
    # with the web, CRAG searches it instead; with general questions declined, nothing to ask
    ask_first = not state.get("web_available") and answers_general
    if not looked_up and not owned and (absent and ask_first or general_form(question)):
        # answer_general asks the model's own knowledge, and looks the question up when unsure
        reason = "the knowledge base holds no likely source for it, nor does it name its own things"
        if general_form(question):
            reason = "asks a definition, and the knowledge base holds no likely source for it"
        update["route"] = Route(category="general", reason=reason, method="rule")
        _without_the_probe(update)
        return update
    if looked_up and ctx.complex_shape == "auto":
        # a complex verdict with no rule's shape is searched whole, as a simple one is: no call
        update["route"] = looked_up
        return update
    _route_by_model(question, ctx, services, update)
    if looked_up:
        _unless_looked_up(update, looked_up["reason"])
    elif owned:
        _unless_looked_up(update, f"it {owned}")
    else:
        _without_the_probe(update)
    return update


def _probe(
    question: str, ctx: Context, services: Services, update: Update
) -> tuple[Route | None, bool]:
    """Search once; return the look-up route when the knowledge base holds the question.

    A likely source by the fitted relevance judge is the sign; with no judge for this run's search
    signals, both searches agreeing on a source. The documents found stay in state, so retrieve
    does not search the same query again. The flag says whether the judge read the sources found
    and found none likely; it also decides whether the question is the knowledge base's own
    (state `owned`, core.question.owned).
    """
    docs = search_for(update, "classify", services, ctx, question, then=None)
    if docs is None:  # no knowledge base: nothing to look up (retrieve notes a failed search)
        return None, False
    update["documents"] = [RESET, *docs]
    update["searched"] = question
    if not docs:
        return None, False
    judge, scores, fallback = judge_sources(question, docs, ctx, services)
    if judge is None:
        update["owned"] = why_owned(question, [], docs)
        if fallback:
            note(update, f"classify: {fallback}")
        if any(d.metadata.get("agreement") for d in docs):
            agree = "both searches agree on a source"
            return Route(category="simple", reason=agree, method="rule"), False
        return None, False
    keys = [fingerprint(d) for d in docs]
    update["probe_scores"] = Scored(query=question, keys=keys, scores=scores)
    best, keep_at = max(scores), judge.thresholds.get("keep", 0.5)
    update["owned"] = why_owned(question, *split_kept(docs, scores, keep_at))
    judge_probe(update, scores, keep_at)
    if best < keep_at:
        return None, True
    reason = f"the knowledge base holds a likely source (p {best:.2f})"
    return Route(category="simple", reason=reason, method="fitted"), False


def _found_across(question: str, across: Across, update: Update) -> Route | None:
    """Take the search in the knowledge base's language as the probe's when it found a source.

    Its documents and their probabilities (read against the translation) stay in state, so
    retrieve and grade_documents read them as they read the probe's.
    """
    if not across.likely:
        return None
    update["documents"] = [RESET, *across.docs]
    update["searched"] = question
    keys = [fingerprint(d) for d in across.docs]
    update["probe_scores"] = Scored(query=question, keys=keys, scores=across.scores)
    best = max(across.scores)
    reason = f"the knowledge base holds a likely source (p {best:.2f}) for {across.asked!r}"
    return Route(category="simple", reason=reason, method="fitted")


def _route_by_model(question: str, ctx: Context, services: Services, update: Update) -> None:
    """Route by the fast model (or its cached verdict); unsure or failing means retrieve."""
    key = (resolve_model_spec(ctx.fast_model), ctx.kb_description, question.casefold().strip())
    cached = services.route_cache.get(key)
    if cached:
        update["route"] = Route(category=cached[0], reason=cached[1], method="cache")  # type: ignore[typeddict-item]
        return
    messages = prompts.messages(question, ctx.kb_description)
    text = ask(update, "classify", services.router, ctx, messages, "retrieving")
    if text is None:  # model down or misconfigured: retrieve, the safe default
        update["route"] = Route(
            category="simple", reason="classifier unavailable", method="default"
        )
        return
    category = parse_category(text)
    if category is None:
        update["route"] = Route(category="simple", reason="unsure, so retrieve", method="default")
        return
    reason = f"model said {category!r}"
    if category == "general" and (
        names_an_entity(question) or length(question) > GENERAL_MAX_WORDS
    ):
        # the small model calls many knowledge-base look-ups "general": trust it only for short
        # questions that name nothing specific; otherwise retrieve (unsure means retrieve)
        category, reason = "simple", "model said 'general', but it is specific enough to look up"
    services.route_cache.put(key, (category, reason))
    update["route"] = Route(category=category, reason=reason, method="model")


def _unless_looked_up(update: Update, holds: str) -> None:
    """Look up after all a question the model would answer without the knowledge base."""
    route = update.get("route")
    if route and route["category"] in ("general", "realtime"):
        said = route["reason"]
        update["route"] = Route(category="simple", reason=f"{said}, but {holds}", method="model")


def _without_the_probe(update: Update) -> None:
    """Set the probe's documents aside when the route answers without the knowledge base.

    They stay in `rejected`, so answer_general can see which of the question's names the
    knowledge base holds.
    """
    route = update.get("route")
    if route and route["category"] in ("general", "realtime") and "searched" in update:
        found = [d for d in update.get("documents") or [] if isinstance(d, Document)]
        update["documents"] = [RESET]
        update["rejected"] = found
        update["searched"] = ""
