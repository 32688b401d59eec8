"""The asker's language: decided from the question's script, checked on the answer."""

from __future__ import annotations

import re
from typing import Literal

from adaptive_rag.core.text.citations import CITATION

Language = Literal["en", "zh"]

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
_NAMES: dict[Language, str] = {"en": "English", "zh": "Chinese"}


def language_of(text: str) -> Language:
    """Return 'zh' when Chinese characters outnumber Latin words, else 'en'.

    Each Chinese character counts as a word (Chinese has no spaces), so a Chinese sentence with a
    product name stays Chinese and an English sentence quoting a Chinese name stays English.
    """
    plain = CITATION.sub(" ", text)
    return "zh" if len(_CJK.findall(plain)) > len(_LATIN_WORD.findall(plain)) else "en"


def language_name(language: Language) -> str:
    """Return the language's English name, as prompts name it."""
    return _NAMES[language]


def answers_in(answer: str, language: Language) -> bool:
    """Whether an answer is written in the language (an answer with no words passes)."""
    plain = CITATION.sub(" ", answer)
    if not _CJK.search(plain) and not _LATIN_WORD.search(plain):
        return True
    return language_of(plain) == language
