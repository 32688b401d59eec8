"""What a question's form alone says: small talk that needs no fact, or a general-knowledge form.

Small talk (a greeting, a sum, a translation) is answered by the model with no search and no
check: there is no fact in it to know or look up. A general-knowledge form (a definition, what an
abbreviation stands for, "什么是 X") asks what any encyclopedia says; it is answered from the
model's own knowledge when the knowledge base holds no likely source for it and the question
names nothing the knowledge base owns (nodes/answer_general).
"""

from __future__ import annotations

import re
from typing import Literal

SmallTalk = Literal["greeting", "arithmetic", "translation"]

_GREETING = re.compile(
    r"^\s*(hi|hello|hey|thanks|thank you|good (morning|afternoon|evening)|你好|您好|谢谢|早上好)"
    r"[\s!.,。！，?？]*$",
    re.IGNORECASE,
)
_ARITHMETIC = re.compile(
    r"^[\s\d.+\-*/×÷()=^%]+[?？]?$|^(what is|what's|计算)\s*[\d\s.+\-*/×÷()^%]+[?？]?$",
    re.IGNORECASE,
)
_TRANSLATE = re.compile(r"^\s*(translate\b|翻译)", re.IGNORECASE)

_DEFINITION = re.compile(
    r"^\s*(what\s+(is|are)\s+(an?\s+)?(?!the\b|this\b|that\b|my\b|our\b|your\b|its\b)"
    r"[\w\s-]{2,40}\??\s*$"
    r"|^\s*what\s+does\s+[\w.-]{2,12}\s+stand\s+for\s*\??\s*$"
    r"|^\s*(define|explain)\s+(an?\s+)?[\w\s-]{2,40}[.?]?\s*$"
    r"|^\s*what\s+is\s+the\s+(meaning|definition)\s+of\s+[\w\s-]{2,40}\??\s*$)",
    re.IGNORECASE,
)
"""A definition in English: "What is a vector database?", "What does HTTP stand for?". Not "What
is the ..." or "What is our ...": those ask about one thing, which a knowledge base may hold."""

_DEFINITION_ZH = re.compile(
    r"^\s*(什么(是|叫)[^，,。？?的]{2,20}|[^，,。？?]{2,20}(是什么|是什么意思|指的是什么|的定义是什么"
    r"|的原理是什么|的原理))[？?。]?\s*$"
)
"""A definition in Chinese: "什么是向量数据库？", "RAG是什么意思？", "光合作用的原理是什么？"."""


def small_talk(question: str) -> SmallTalk | None:
    """Return what kind of small talk a question is (None for a question that asks a fact)."""
    if _GREETING.match(question):
        return "greeting"
    if _ARITHMETIC.match(question.strip()):
        return "arithmetic"
    if _TRANSLATE.match(question):
        return "translation"
    return None


def general_form(question: str) -> bool:
    """Whether a question asks a definition, as any encyclopedia would answer it."""
    return bool(_DEFINITION.match(question) or _DEFINITION_ZH.match(question))
