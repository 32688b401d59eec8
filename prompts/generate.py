"""What generate shows the model (the sources, then the task and the language), and its texts.

An answer from sources (or its rewrite after a failed fact check, or the synthesis of hops) is
read as every reading node's is (prompts.reading); a no-retrieval answer sees the question alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from adaptive_rag.core.text import Language, language_name
from adaptive_rag.prompts.reading import reading_messages, worked_out
from adaptive_rag.schema.reading import describe_hops
from adaptive_rag.schema.values import Hop, SelfCheck
from langchain_core.documents import Document
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

IF_MISSING = "If the sources do not contain the answer, say that the sources do not say."
"""The missing-answer line of every task that answers from sources."""

AnswerForm = Literal["any", "open"]
"""How an answer from sources is asked to open: "any" question may ask yes or no; an "open" one
asks what, who, how much …, so the prompt says nothing of yes or no."""

FORM: dict[AnswerForm, str] = {
    "any": "Answer in two or three sentences; if the question asks yes or no, begin with that yes or no (in the answer's language).",
    "open": "Answer in two or three sentences.",
}

RAG_TASK = """Task: answer the question using only the sources above.
Cite the sources you use with their numbers in square brackets, like [1] or [2][3].
{form}
{if_missing}
Question: {question}"""

REGENERATE_TASK = (
    RAG_TASK
    + """
A previous answer was rejected by a fact check: {feedback}
Write a new answer that states only what the sources support."""
)

HOPS_TASK = """Task: the question was searched step by step; each step noted the fact it found:
{steps}
Answer the original question from the sources above, using the facts found.
Cite the sources you use with their numbers in square brackets, like [1] or [2][3].
{form}
{if_missing}
Original question: {question}"""

LANGUAGE_CUE = {
    "en": "Answer in English, with citations:",
    "zh": "请用中文回答，并用 [n] 注明来源：",
}
"""The last line of every answer prompt: the language is decided from the question."""

RETRY = {
    "language": "Your previous answer was not written in {language}. Write the whole answer in {language}.",
    "empty": "Your previous answer gave citation numbers where the facts should be. State the facts themselves, with citations.",
}

DIRECT_SYSTEM = """Answer the question from your general knowledge, briefly.
No documents were searched for this answer."""

DIRECT_USER = "Question: {question}\n{cue}"

TALK_SYSTEM = """You are the assistant of a knowledge base. You answer questions from its documents and cite them; a general question you answer from general knowledge and say so; what the documents do not say, you do not guess.
The user's message is small talk: a greeting, thanks, an apology, or a question about you. Reply to it briefly and kindly, in one or two sentences. Do not repeat the message."""

TALK_USER = "Message: {question}\n{cue}"

TALK_CUE = {"en": "Reply in English:", "zh": "请用中文回复："}

ABOUT = {
    "en": "I am the assistant of this knowledge base. Ask me about what its documents say, and I"
    " answer with the sources I used; a general question I answer from general knowledge and say"
    " so. What the documents do not say, I do not guess.",
    "zh": "我是这个知识库的助手。你可以问我文档里写了什么，我会注明回答所用的来源；一般性的问题我会根据常识回答并注明。"
    "文档里没有写的内容，我不会猜测。",
}
"""The reply to a question about the assistant itself ("What can you do?", "你是谁？"): what it
does, not a small model's guess at who it is."""

DIRECT_CUE = {"en": "Answer in English:", "zh": "请用中文回答："}

DECLINE = {
    "en": {
        "no_documents": "I found nothing about this in the knowledge base, so I cannot answer it from there.",
        "no_knowledge_base": "I cannot answer from the knowledge base: {detail}.",
        "no_relevant_documents": "The knowledge base does not answer this: the documents I found are about other things.",
        "not_in_sources": "The knowledge base does not answer this: the documents I found do not say.",
        "unsupported": "I could not find an answer that the documents support, so I will not guess.",
        "empty_answer": "I could not write an answer from the documents, so I will not guess.",
    },
    "zh": {
        "no_documents": "知识库中没有找到与此相关的内容，因此无法据此回答。",
        "no_knowledge_base": "无法根据知识库回答：{detail}。",
        "no_relevant_documents": "知识库无法回答这个问题：找到的文档讲的是别的内容。",
        "not_in_sources": "知识库无法回答这个问题：找到的文档中没有相关说法。",
        "unsupported": "没有找到文档能够支持的答案，所以我不作猜测。",
        "empty_answer": "无法根据文档写出答案，所以我不作猜测。",
    },
}
"""What a declined question is told, by language and reason."""

WEB_UNAVAILABLE_NOTE = {
    "en": "The web could not be searched ({reason}), so this answer is from the knowledge base only.",
    "zh": "无法搜索网络（{reason}），以下回答仅来自知识库。",
}
UNVERIFIED_NOTE = {
    "en": "(Unverified: this answer did not pass the fact check within its budget.)",
    "zh": "（未经核实：此回答在预算内未通过事实核查。）",
}
"""The note under an answer left unverified, in the answer's language."""
DIRECT_NOTE = {
    "en": "(Answered from general knowledge; no documents were searched.)",
    "zh": "（此回答来自一般知识，未检索文档。）",
}
SOURCES_HEADING = {"en": "Sources:", "zh": "来源："}
"""Heading of the cited-sources list a chat message carries under its answer."""
FAILED_ANSWER = "Sorry, I could not answer this question: {reason}."


def talk_messages(message: str, language: Language) -> list[BaseMessage]:
    """Return the small-talk prompt: what the assistant does, then the message to reply to."""
    user = TALK_USER.format(question=message, cue=TALK_CUE[language])
    return [SystemMessage(TALK_SYSTEM), HumanMessage(user)]


def direct_messages(question: str, language: Language) -> list[BaseMessage]:
    """Return the no-retrieval prompt: the question alone, no document shown."""
    user = DIRECT_USER.format(question=question, cue=DIRECT_CUE[language])
    return [SystemMessage(DIRECT_SYSTEM), HumanMessage(user)]


def answer_task(question: str, check: SelfCheck | None, form: AnswerForm = "any") -> str:
    """Return the task of an answer from sources, or of its rewrite after a failed fact check.

    `form` "open" leaves out the yes-or-no line, for a question that asks none.
    """
    fields = {"question": question, "if_missing": IF_MISSING, "form": FORM[form]}
    if check is None or check["grounded"]:
        return RAG_TASK.format(**fields)
    feedback = str(check["feedback"] or "it made claims the sources do not support")
    return REGENERATE_TASK.format(feedback=feedback, **fields)


def hops_task(hops: Sequence[Hop], question: str) -> str:
    """Return the task of an answer from the facts a step-by-step search found."""
    return HOPS_TASK.format(
        steps=describe_hops(hops), question=question, if_missing=IF_MISSING, form=FORM["any"]
    )


def source_messages(
    docs: list[Document], task: str, question: str, language: Language
) -> tuple[list[BaseMessage], str]:
    """Return the sources, then the task, what arithmetic works out and the language cue.

    Also returns the worked-out lines alone, which the node notes for the user.
    """
    worked = worked_out(docs, question, language)
    return reading_messages(docs, f"{task}\n{worked}{LANGUAGE_CUE[language]}"), worked


def retry(problem: Literal["language", "empty"], language: Language) -> HumanMessage:
    """Return the cue that asks for an answer again, saying what was wrong with the last."""
    return HumanMessage(RETRY[problem].format(language=language_name(language)))
