"""What classify asks the fast model: a question's route, and a question in another language.

One word, the route, when no rule is sure; the question in the knowledge base's language, when
it is asked in another.
"""

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

SYSTEM = """You route questions for an assistant that has a knowledge base about {kb_description}.
Reply with exactly one word:
- general: small talk, or common knowledge any textbook has (arithmetic, word meanings, how things work). No search needed.
- simple: one fact that may be in the knowledge base.
- complex: needs several facts combined, compared or reasoned over in steps.
- realtime: about current events, today's news, prices, weather or anything that changes daily.
If the question could be about the knowledge base, or you are not sure, reply: simple."""

USER = "Question: {question}\nOne word (general, simple, complex or realtime):"


def messages(question: str, kb_description: str) -> list[BaseMessage]:
    """Return the routing instruction (naming what the knowledge base holds) and the question."""
    return [
        SystemMessage(SYSTEM.format(kb_description=kb_description)),
        HumanMessage(USER.format(question=question)),
    ]


TRANSLATE = """Translate the user's question into {language}. Keep names, product names and numbers as they are.
Reply with the translated question only."""

LANGUAGES = {"en": "English", "zh": "Simplified Chinese"}
"""The languages a question is translated into, by code."""


def translation(question: str, into: str) -> list[BaseMessage]:
    """Return the instruction to translate a question into the knowledge base's language."""
    return [
        SystemMessage(TRANSLATE.format(language=LANGUAGES[into])),
        HumanMessage(question),
    ]
