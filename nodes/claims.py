"""Claims: a yes/no question joining claims is looked up and answered claim by claim.

Each claim ("Does the Fortune article claim X?") gets its own search, so each article it names is
found by its own words, and a short answer over that search's best sources; the verdicts are
joined by rule (core.conjunction). When a claim cannot be answered with a yes or no, the
question is answered whole by `generate` over the claims' searches, as a comparison's parts are.
"""

from __future__ import annotations

from adaptive_rag.core.citations import tidy
from adaptive_rag.core.conjunction import joined, verdict_of
from adaptive_rag.core.documents import doc_key
from adaptive_rag.core.shape import consistent_yes_no
from adaptive_rag.knowledge.sources import document_of, reading_messages, retrieve
from adaptive_rag.nodes.calling import ask, judged, note, note_failure
from adaptive_rag.nodes.citing import sources_for
from adaptive_rag.prompts import generate as prompts
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.run_context import context_of
from adaptive_rag.schema.state import RESET, State
from adaptive_rag.schema.updates import Update
from adaptive_rag.schema.values import SubSearch
from adaptive_rag.services import Services
from langchain_core.documents import Document
from langgraph.runtime import Runtime

SOURCES_PER_CLAIM = 2
"""Sources each claim is answered from: its own search's best (why two: docs/decisions.md)."""


def claims(state: State, runtime: Runtime[Context], services: Services) -> Update:
    """Search and answer each claim; join the verdicts, or leave the answer to `generate`."""
    ctx = context_of(runtime)
    parts = list(state.get("sub_questions") or [])
    cue = prompts.LANGUAGE_CUE[state.get("language") or "en"]
    update: Update = {"steps": "claims", "retrievals": len(parts), "mode": "synthesis"}
    found: list[list[Document]] = []
    answers: list[str] = []
    for index, claim in enumerate(parts):
        try:
            docs = retrieve(services.retriever_for(ctx), claim, min(ctx.k, SOURCES_PER_CLAIM))
        except Exception as exc:
            docs = []
            note_failure(update, f"claims {index + 1}", "retrieval", exc, "no documents")
        found.append(docs)
        if not docs:
            continue
        task = prompts.RAG_TASK.format(question=claim, if_missing=prompts.IF_MISSING)
        text = ask(
            update,
            "claims",
            services.chat,
            ctx,
            reading_messages(docs, f"{task}\n{cue}"),
            "the question is answered whole",
        )
        if text is not None:
            answers.append(consistent_yes_no(tidy(text), claim))
            runtime.stream_writer({"step": "claims", "claim": claim, "answer": answers[-1]})
    merged, numbering = _joined_sources(found)
    update["documents"] = [RESET, *merged]
    update["sub_searches"] = [
        SubSearch(index=i, question=claim, source_keys=[doc_key(d) for d in docs])
        for i, (claim, docs) in enumerate(zip(parts, found, strict=True))
    ]
    verdicts = [verdict_of(a) for a in answers]
    if len(answers) < len(parts) or None in verdicts:
        note(update, "claims: a claim got no yes or no; the question is answered whole")
        return update
    answer = joined(answers, numbering)
    said = ", ".join("yes" if v else "no" for v in verdicts)
    judged(update, "claims", "rule", None, "yes" if all(verdicts) else "no", f"claims: {said}")
    update.update(
        {
            "answer": answer,
            "sources": sources_for(answer, merged),
            "notices": [],
            "generations": 1,
            "answer_id": "",
            "answer_logprob": None,
        }
    )
    return update


def _joined_sources(found: list[list[Document]]) -> tuple[list[Document], list[list[int]]]:
    """Return the claims' sources, each document once, and each claim's source numbers in them."""
    merged: list[Document] = []
    position: dict[str, int] = {}
    numbering: list[list[int]] = []
    for docs in found:
        numbers = []
        for doc in docs:
            name = document_of(doc)
            if name not in position:
                position[name] = len(merged) + 1
                merged.append(doc)
            numbers.append(position[name])
        numbering.append(numbers)
    return merged, numbering
