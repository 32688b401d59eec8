"""Answer one sub-question from its own retrieval (runs in parallel, one per Send)."""

from __future__ import annotations

from typing import Any

from adaptive_rag.core.documents import doc_key
from adaptive_rag.core.failures import failed
from adaptive_rag.knowledge.sources import format_documents, retrieve
from adaptive_rag.prompts import sub_question as prompts
from adaptive_rag.providers.chat import call_model
from adaptive_rag.schema.context import Context, context_of
from adaptive_rag.schema.state import SubAnswer, SubQuestionState
from adaptive_rag.services import Services
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime


def sub_question(
    state: SubQuestionState, runtime: Runtime[Context], services: Services
) -> dict[str, Any]:
    """Retrieve for the sub-question and answer it briefly; 'unknown' on any failure."""
    ctx = context_of(runtime)
    question, index = state["sub_question"], state["index"]
    answering = ctx.answer_sub_questions and not state.get("retrieve_only")
    update: dict[str, Any] = {"steps": "sub_question", "retrievals": 1}
    answer = "unknown" if answering else ""
    try:
        docs = retrieve(services.kb(ctx), question, ctx.k)
    except Exception as exc:
        docs = []
        update.update(failed(f"sub_question {index + 1}", "retrieval", exc, "no documents"))
    if docs and answering:
        try:
            reply = call_model(
                services.chat(ctx),
                [
                    SystemMessage(prompts.SYSTEM),
                    HumanMessage(
                        prompts.USER.format(documents=format_documents(docs), question=question)
                    ),
                ],
            )
            update.update(reply.usage())
            answer = reply.text or "unknown"
        except Exception as exc:
            update.update(failed(f"sub_question {index + 1}", "model", exc, "unknown"))
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
