"""Generate: write the answer, citing numbered sources, in the mode the state calls for."""

from __future__ import annotations

import re
from typing import Any

from adaptive_rag.graph.context import Context, context_of
from adaptive_rag.graph.state import (
    RESET,
    GenerationMode,
    Source,
    State,
    SubAnswer,
    doc_key,
)
from adaptive_rag.prompts import generate as prompts
from adaptive_rag.services import Services
from adaptive_rag.services.chat import call_model
from adaptive_rag.services.retrieval import format_documents, fuse_documents, title_of
from adaptive_rag.services.secrets import describe
from langchain_core.documents import Document
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime

_CITATION = re.compile(r"\[(\d+(?:\s*[,，]\s*\d+)*)\]")


_SOURCE_TAG = re.compile(r'<source\s+id="?(\d+)"?[^>]*>')


def tidy(answer: str) -> str:
    """Turn source markup a model echoed ('according to <source id="1" ...>') into [1]."""
    return _SOURCE_TAG.sub(r"[\1]", answer).replace("</source>", "").strip()


def cited_numbers(answer: str) -> list[int]:
    """Return the source numbers an answer cites, in first-cited order."""
    numbers: list[int] = []
    for group in _CITATION.findall(answer):
        for part in re.split(r"[,，]", group):
            if int(part) not in numbers:
                numbers.append(int(part))
    return numbers


def sources_for(answer: str, docs: list[Document]) -> list[Source]:
    """List the documents an answer cites; if it cites none, all it was given (uncited)."""
    cited = [n for n in cited_numbers(answer) if 1 <= n <= len(docs)]
    chosen = cited or list(range(1, len(docs) + 1))
    return [
        Source(
            id=n,
            title=title_of(docs[n - 1]),
            source=str(docs[n - 1].metadata.get("source", "")),
            snippet=docs[n - 1].page_content.strip()[:200],
            origin="web" if docs[n - 1].metadata.get("origin") == "web" else "kb",
            cited=bool(cited),
        )
        for n in chosen
    ]


def renumber(sub_answer: SubAnswer, docs: list[Document]) -> str:
    """Rewrite a sub-answer's local [n] citations as numbers into the merged document list."""
    position = {doc_key(doc): n for n, doc in enumerate(docs, start=1)}
    keys = sub_answer["source_keys"]

    def to_global(match: re.Match[str]) -> str:
        numbers = [int(p) for p in re.split(r"[,，]", match.group(1))]
        mapped = [position.get(keys[n - 1]) for n in numbers if 1 <= n <= len(keys)]
        return "".join(f"[{m}]" for m in mapped if m) or ""

    return _CITATION.sub(to_global, sub_answer["answer"])


def fuse_branches(branches: list[SubAnswer], docs: list[Document], limit: int) -> list[Document]:
    """Order the branches' documents by reciprocal rank fusion and keep the best `limit`."""
    by_key = {doc_key(doc): doc for doc in docs}
    rankings = [[by_key[key] for key in b["source_keys"] if key in by_key] for b in branches]
    fused = fuse_documents(rankings, len(docs))
    ranked = {doc_key(doc) for doc in fused}
    return [*fused, *(doc for doc in docs if doc_key(doc) not in ranked)][:limit]


def choose_mode(state: State) -> GenerationMode:
    """Pick how to answer from what this turn has gathered."""
    route = state.get("route")
    check = state.get("check")
    found = bool(state.get("documents") or state.get("rejected"))
    if found and state.get("sub_answers") and route and route["category"] == "complex":
        return "synthesis"
    if check is not None and not check["grounded"]:
        return "regenerate"
    if found:
        return "rag"
    if route and route["category"] == "general":
        return "direct"
    return "fallback"


def generate(state: State, runtime: Runtime[Context], services: Services) -> dict[str, Any]:
    """Answer; a model failure yields an honest 'could not answer', never an exception."""
    ctx = context_of(runtime)
    question = state.get("standalone") or ""
    mode = choose_mode(state)
    docs = list(state.get("documents") or []) or list(state.get("rejected") or [])
    update: dict[str, Any] = {"steps": "generate", "generations": 1, "mode": mode}
    if mode == "regenerate":
        update["regenerations"] = 1
    if mode in ("direct", "fallback"):
        docs = []
        system, user = prompts.DIRECT_SYSTEM, prompts.DIRECT_USER.format(question=question)
    elif mode == "synthesis":
        branches = state.get("sub_answers") or []
        docs = fuse_branches(branches, docs, 2 * ctx.k)
        update["documents"] = [RESET, *docs]
        parts = [b for b in branches if b["index"] < len(state.get("sub_questions") or [])]
        if any(b["answer"] for b in parts):  # empty: the branch was only searched for
            listing = "\n".join(
                f"{i}. {b['question']}\n   {renumber(b, docs)}" for i, b in enumerate(parts, 1)
            )
            system, template = prompts.SYNTHESIS_SYSTEM, prompts.SYNTHESIS_USER
        else:
            listing = "\n".join(f"{i}. {b['question']}" for i, b in enumerate(parts, 1))
            system, template = prompts.PARTS_SYSTEM, prompts.PARTS_USER
        user = template.format(
            documents=format_documents(docs), sub_answers=listing, question=question
        )
    else:
        check = state.get("check")
        feedback = (
            check["feedback"] if check else ""
        ) or "it made claims the sources do not support"
        system = (
            prompts.REGENERATE_SYSTEM.format(feedback=feedback)
            if mode == "regenerate"
            else prompts.RAG_SYSTEM
        )
        user = prompts.RAG_USER.format(documents=format_documents(docs), question=question)
    try:
        reply = call_model(services.chat(ctx), [SystemMessage(system), HumanMessage(user)])
    except Exception as exc:
        reason = f"the model failed ({describe(exc)})"
        update.update(answer=prompts.FAILED_ANSWER.format(reason=reason), mode="none", sources=[])
        update["notes"] = f"generate: {reason}"
        return update
    update.update(reply.usage())
    answer = tidy(reply.text) or prompts.FAILED_ANSWER.format(reason="the model returned nothing")
    update["answer"] = _with_notes(answer, mode, state)
    update["sources"] = sources_for(answer, docs) if docs else []
    return update


def _with_notes(answer: str, mode: GenerationMode, state: State) -> str:
    """Say plainly when the answer did not come from the knowledge base or the web."""
    route = state.get("route")
    lines = []
    if route and route["category"] == "realtime" and state.get("web_status") != "ok":
        reason = state.get("web_status") or "web search unavailable"
        lines.append(prompts.WEB_UNAVAILABLE_NOTE.format(reason=reason))
    if mode == "fallback":
        lines.append(prompts.NO_SOURCES_NOTE + "; this answer is from general knowledge.")
    elif mode == "direct":
        return f"{answer}\n\n{prompts.DIRECT_NOTE}"
    return "\n\n".join([*lines, answer])
