"""What transform_query asks the model: a better search query for a question the search missed."""

from adaptive_rag.prompts.classify import LANGUAGES, translation
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

__all__ = ["LANGUAGES", "messages", "translation"]

SYSTEM = """The search for this question found nothing useful. Write one better search query for it:
name the key entities and terms, drop filler words, keep the question's language.
Reply with the query only, on one line."""

USER = "Question: {question}\nPrevious query: {previous}\nBetter query:"


def messages(question: str, previous: str) -> list[BaseMessage]:
    """Return the instruction, then the question and the query that found nothing useful."""
    return [SystemMessage(SYSTEM), HumanMessage(USER.format(question=question, previous=previous))]
