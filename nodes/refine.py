"""Refine (CRAG knowledge refinement): keep only the strips of the documents that matter."""

from __future__ import annotations

import re

from adaptive_rag.nodes.calling import ask_json, note
from adaptive_rag.prompts import refine as prompts
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.run_context import context_of
from adaptive_rag.schema.state import RESET, State
from adaptive_rag.schema.updates import Update
from adaptive_rag.services import Services
from langchain_core.documents import Document
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime
from pydantic import BaseModel

_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])")
MAX_STRIPS = 24


class Keep(BaseModel):
    """The refiner's reply: numbers of the strips to keep."""

    keep: list[int]


def split_strips(docs: list[Document], sentences_per_strip: int = 2) -> list[tuple[int, str]]:
    """Cut documents into strips of a few sentences, tagged with their document index."""
    strips: list[tuple[int, str]] = []
    for index, doc in enumerate(docs):
        sentences = [s.strip() for s in _SENTENCE_END.split(doc.page_content) if s.strip()]
        for start in range(0, len(sentences), sentences_per_strip):
            strips.append((index, " ".join(sentences[start : start + sentences_per_strip])))
    return strips[:MAX_STRIPS]


def refine(state: State, runtime: Runtime[Context], services: Services) -> Update:
    """Rebuild each document from its kept strips; on failure keep the documents whole."""
    ctx = context_of(runtime)
    docs = list(state.get("documents") or [])
    update: Update = {"steps": "refine"}
    strips = split_strips(docs)
    if len(strips) <= 1:
        return update
    numbered = "\n".join(f"[{n}] {text}" for n, (_, text) in enumerate(strips, start=1))
    messages = [
        SystemMessage(prompts.SYSTEM),
        HumanMessage(prompts.USER.format(question=state.get("standalone") or "", strips=numbered)),
    ]
    reply = ask_json(update, "refine", services.fast, ctx, messages, Keep, "kept documents whole")
    if reply is None:
        return update
    keep = {n for n in reply.keep if 1 <= n <= len(strips)}
    if not keep:
        note(update, "refine: no strip judged useful; kept documents whole")
        return update
    refined = []
    for index, doc in enumerate(docs):
        texts = [t for n, (i, t) in enumerate(strips, start=1) if i == index and n in keep]
        if texts:
            refined.append(Document(page_content=" ".join(texts), metadata=dict(doc.metadata)))
    update["documents"] = [RESET, *refined]
    update["doc_scores"] = []
    return update
