"""One hop of the multi-step path: search, note the bridge fact, write the next hop's query.

The names the hop's sources hold that the question does not (core.bridges) carry the search on:
they seed the next hop's graph walk, preferring the one the model's finding or query names, and
when the model gives no new query (or no readable reply) the next query is made of them, so a
hop does not depend only on the model writing a good query. A finding the sources do not state
(core.grounding, no model call) is dropped: it is not carried into later hops' facts, and a hop
whose finding is dropped is not done.
"""

from __future__ import annotations

import re

from adaptive_rag.core.bridges import MOST, candidates, named, written
from adaptive_rag.core.grounding import check
from adaptive_rag.core.judges import look_alikes
from adaptive_rag.core.text import doc_key, entities_of, key
from adaptive_rag.knowledge.sources import source_texts, title_of
from adaptive_rag.nodekit.calling import ask_json, judged, note, progress, search_for
from adaptive_rag.prompts import hop as prompts
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.reading import links_of
from adaptive_rag.schema.state import State
from adaptive_rag.schema.updates import Update
from adaptive_rag.schema.values import Hop
from adaptive_rag.services import Services
from langchain_core.documents import Document
from pydantic import BaseModel, Field


class Step(BaseModel):
    """The model's reply for one hop."""

    finding: str = ""
    missing: str = Field(default="", max_length=300)
    answerable: bool = False
    next_query: str = Field(default="", max_length=300)

    def done(self) -> bool:
        """Stop only if the model also named nothing missing (it says "yes" before it reads)."""
        return self.answerable and not self.missing.strip()

    def query(self) -> str:
        """Search next for the model's query, else for the missing fact it named."""
        return (self.next_query or self.missing).strip()


ON_FAILURE = "searching on by the names in its sources"
"""What a hop does when the model's reply fails or cannot be read."""

_FORMAT_WORDS = tuple(
    frozenset(re.findall(r"\w+", description.casefold())) for description in prompts.FIELDS.values()
)
"""The words of each field's description in the reply format."""


def echoes(text: str) -> bool:
    """Whether a reply field only repeats a field's description from the reply format.

    The small model sometimes copies the format's wording as its finding or query; searching
    for that, or carrying it as a fact, would lead the hops nowhere.
    """
    words = re.findall(r"\w+", text.casefold())
    if len(words) < 4:
        return False
    return any(sum(w in known for w in words) >= 0.8 * len(words) for known in _FORMAT_WORDS)


def without_echoes(update: Update, name: str, step: Step) -> Step:
    """Blank the fields that repeat the reply format, noting each."""
    for field in prompts.FIELDS:
        value = str(getattr(step, field))
        if echoes(value):
            note(update, f"{name}: the reply's {field} repeats the reply format, ignored")
            setattr(step, field, "")
    return step


def grounded(update: Update, name: str, finding: str, texts: list[str], known: str) -> bool:
    """Whether this hop's sources state its finding; names known already are free to repeat.

    `known` is the question and the earlier hops' findings and bridges. An empty finding claims
    nothing. The verdict is recorded as a rule judgment, and a dropped finding as a note.
    """
    if not finding:
        return True
    result = check(finding, ["\n\n".join(texts)], known)
    verdict = "grounded" if result.grounded else "ungrounded"
    judged(update, "hop", "rule", result.score, verdict, f"{name}: {result.feedback or finding}")
    if not result.grounded:
        note(update, f"{name}: finding not found in its sources, dropped: {finding[:200]!r}")
    return result.grounded


def bridges_of(texts: list[str], question: str, hops: list[Hop], step: Step) -> list[str]:
    """Return the names that lead on from this hop's sources, as the sources write them."""
    used = {key(name) for h in hops for name in h["bridges"]}
    found = candidates(texts, question, used)
    preferred = named(found, step.finding, step.next_query, step.missing)
    joined = "\n".join(texts)
    return [written(name, joined) for name in (preferred or found)[:MOST]]


def read(
    update: Update, state: State, ctx: Context, services: Services, query: str, docs: list[Document]
) -> tuple[Step, list[str]]:
    """Ask the model what this hop's sources say; return its step (finding checked) and bridges.

    An unreadable reply is no finding and no query: the bridges carry the search on.
    """
    question = state.get("standalone") or ""
    hops = list(state.get("hops") or [])
    name = f"hop {len(hops) + 1}"
    messages = prompts.messages(docs, query, hops, question, state.get("language") or "en")
    step = ask_json(update, name, services.fast, ctx, messages, Step, ON_FAILURE) or Step()
    step = without_echoes(update, name, step)
    texts = source_texts(docs)
    earlier = [h["finding"] for h in hops] + [b for h in hops for b in h["bridges"]]
    step.finding = step.finding.strip()
    if not grounded(update, name, step.finding, texts, "\n".join([question, *earlier])):
        step.finding, step.answerable = "", False
    return step, [] if step.done() else bridges_of(texts, question, hops, step)


def without_look_alikes(
    update: Update, name: str, question: str, docs: list[Document]
) -> list[Document]:
    """Leave out the sources a chain from the question's own name shows to be look-alikes.

    A look-alike answers a question like this one about someone else; the hop's model would
    read its words as the finding (core.judges.relevance.look_alikes).
    """
    aside = look_alikes(question, [doc.page_content for doc in docs])
    if not aside:
        return docs
    listed = "; ".join(f"'{title_of(docs[i])}'" for i in aside)
    judged(update, name, "rule", None, "look-alikes left out", listed)
    return [doc for i, doc in enumerate(docs) if i not in aside]


def hop(state: State, ctx: Context, services: Services) -> Update:
    """Search this hop's query, seeded with the last hop's bridges; a failed search ends hops."""
    question = state.get("standalone") or ""
    hops = list(state.get("hops") or [])
    query = state.get("next_query") or (state.get("sub_questions") or [question])[0]
    seeds = [key(name) for name in hops[-1]["bridges"]] if hops else []
    update: Update = {"next_query": ""}
    bridges: list[str] = []
    name = f"hop {len(hops) + 1}"
    found = search_for(update, name, services, ctx, query, "answering", seeds)
    if found is None:  # the search failed: stop searching, answer from what we have
        docs, step = [], Step(answerable=True)
    else:  # nothing found: no finding to build on, nothing to answer from
        docs, step = found, Step(answerable=False, next_query="")
    if docs:
        docs = without_look_alikes(update, name, question, docs)
        step, bridges = read(update, state, ctx, services, query, docs)
    record = Hop(
        index=len(hops),
        query=query,
        finding=step.finding,
        done=step.done(),
        source_keys=[doc_key(doc) for doc in docs],
        bridges=bridges,
        links=links_of(docs, {*entities_of(query), *seeds}),
    )
    progress(
        {
            "step": "hop",
            "index": record["index"],
            "query": query,
            "finding": record["finding"],
            "bridges": bridges,
            "links": record["links"],
        }
    )
    update["hops"] = [*hops, record]
    update["documents"] = docs
    if not record["done"]:
        searched = [question, *(h["query"] for h in hops), query]
        update["next_query"] = next_query(step, bridges, searched)
    return update


def next_query(step: Step, bridges: list[str], searched: list[str]) -> str:
    """Return the model's next query, or the bridges' names when it gave none or a repeat."""
    done = {q.strip().casefold() for q in searched}
    for candidate in (step.query(), ", ".join(bridges)):
        if candidate and candidate.casefold() not in done:
            return candidate
    return ""
