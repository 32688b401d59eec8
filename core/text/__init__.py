"""Text read by rules, no model: terms, numbers, entities, language, citations, document keys.

`terms_of` gives a text's names, numbers, quoted spans and content words (Chinese by jieba) and
`found_in` which of them another text holds; `entities_of` the entities that link chunks;
`language_of` a text's language; the citation helpers read and tidy an answer's [n] markers;
`doc_key` names a chunk whatever store or page it came from.
"""

from adaptive_rag.core.text.citations import (
    CITATION,
    cited_numbers,
    cited_sources,
    says_nothing,
    tidy,
    without_citations,
)
from adaptive_rag.core.text.documents import doc_key
from adaptive_rag.core.text.entities import VERSION, entities_of, key, specific
from adaptive_rag.core.text.language import Language, answers_in, language_name, language_of
from adaptive_rag.core.text.messages import message_text
from adaptive_rag.core.text.numbers import CN_NUMERAL, cn_value, numbers_in
from adaptive_rag.core.text.terms import (
    Terms,
    fold,
    found_in,
    is_term,
    key_tokens,
    stem,
    strong,
    terms_of,
    unlisted,
)
from adaptive_rag.core.text.terms_zh import CJK, quiet_jieba, unknown
from adaptive_rag.core.text.terms_zh import cut as cut_zh

__all__ = [
    "message_text",
    "CITATION",
    "CJK",
    "CN_NUMERAL",
    "VERSION",
    "Language",
    "Terms",
    "answers_in",
    "cited_numbers",
    "cited_sources",
    "cn_value",
    "cut_zh",
    "doc_key",
    "entities_of",
    "fold",
    "found_in",
    "is_term",
    "key",
    "key_tokens",
    "language_name",
    "language_of",
    "numbers_in",
    "quiet_jieba",
    "says_nothing",
    "specific",
    "stem",
    "strong",
    "terms_of",
    "tidy",
    "unknown",
    "unlisted",
    "without_citations",
]
