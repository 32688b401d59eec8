"""Tasks for writing the answer after the sources (from sources, from hops, again), and texts."""

IF_MISSING = "If the sources do not contain the answer, say that the sources do not say."
"""The missing-answer line of every task that answers from sources."""

RAG_TASK = """Task: answer the question using only the sources above.
Cite the sources you use with their numbers in square brackets, like [1] or [2][3].
Answer in two or three sentences; if the question asks yes or no, begin with that yes or no (in the answer's language).
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
Answer in two or three sentences; if the question asks yes or no, begin with that yes or no (in the answer's language).
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
