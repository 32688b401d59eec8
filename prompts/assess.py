"""What assess shows the model: the sources, then whether they state the answer at all."""

from __future__ import annotations

from adaptive_rag.core.text import Language
from adaptive_rag.prompts.reading import reading_messages, worked_out
from langchain_core.documents import Document
from langchain_core.messages import BaseMessage

# One token, read as odds: the reply's probability of "yes" is one signal of the answerability
# judge (core.judges.answerability).
TASK = """Task: decide whether the sources above state the answer to the question.
Question: {question}
Do the sources state the answer? Reply yes or no."""


def messages(docs: list[Document], question: str, language: Language) -> list[BaseMessage]:
    """Return the sources, then what arithmetic works out from them, then the yes/no task."""
    worked = worked_out(docs, question, language)
    return reading_messages(docs, worked + TASK.format(question=question))
