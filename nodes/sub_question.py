"""Answer one sub-question from its own retrieval (runs in parallel, one per Send)."""

from __future__ import annotations

from adaptive_rag.core.documents import doc_key
from adaptive_rag.knowledge.sources import format_documents, retrieve
from adaptive_rag.nodes.calling import ask, note_failure
from adaptive_rag.prompts import sub_question as prompts
from adaptive_rag.schema.context import Context, context_of
from adaptive_rag.schema.state import SubAnswer, SubQuestionState
from adaptive_rag.schema.updates import Update
from adaptive_rag.services import Services
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime


def sub_question(state: SubQuestionState, runtime: Runtime[Context], services: Services) -> Update:
    """Retrieve for the sub-question and answer it briefly; 'unknown' on any failure."""
    ctx = context_of(runtime)
    question, index = state["sub_question"], state["index"]
    answering = ctx.answer_sub_questions and not state.get("retrieve_only")
    update: Update = {"steps": "sub_question", "retrievals": 1}
    name = f"sub_question {index + 1}"
    answer = "unknown" if answering else ""
    try:
        docs = retrieve(services.retriever_for(ctx), question, ctx.k)
    except Exception as exc:
        docs = []
        note_failure(update, name, "retrieval", exc, "no documents")
    if docs and answering:
        messages = [
            SystemMessage(prompts.SYSTEM),
            HumanMessage(prompts.USER.format(documents=format_documents(docs), question=question)),
        ]
        answer = ask(update, name, services.chat, ctx, messages, "unknown") or "unknown"
    update["documents"] = docs
    update["sub_answers"] = [
        SubAnswer(
            index=index,
            question=question,
            answer=answer,
            source_keys=[doc_key(doc) for doc in docs],
        )
    ]
    return update
