"""Sentences that only point at the sources ("This information can be found in source [1].").

Or at a part of one ("This can be found in the table under "Print speed".").
Or that hold nothing but their citations ("[1] and [2][3].").

A small model often ends an answer with such a line. It states nothing, so it can be neither
supported nor refuted, and a reader who follows its citation learns nothing the answer's other
sentences did not cite already. The grounding repair (core.grounding) drops it and hands its
citations to the sentence before it when that one cites nothing.
"""

from __future__ import annotations

import re

from adaptive_rag.core.text import terms_of

POINTING_WORDS = frozenset(
    {
        "found",
        "find",
        "see",
        "detail",
        "locate",
        "located",
        "mention",
        "mentioned",
        "refer",
        "referenced",
        "available",
        "provide",
        "provides",
        "provided",
        "directly",
        "stated",
        "explicitly",
        "信息",
        "找到",
        "来自",
        "参见",
        "详见",
        "查看",
        "提到",
        "提及",
        "出处",
    }
)
"""The only content words a pointing sentence may hold (core.text drops "source", "the", …)."""

PLACES = frozenset({"table", "page", "section", "paragraph", "表格", "章节", "段落"})
"""Parts of a source a pointing sentence may name, beside a word of POINTING_WORDS that points
("found in the table"): alone ("It also has a table.") they are a claim."""

_POINTED_AT = re.compile(
    r"\b(?:sources?|documents?|information|passages?|text|context|references?|table|page"
    r"|section|paragraph)\b"
    r"|来源|文档|资料|信息|原文|文中|出处|表格|章节|段落",
    re.IGNORECASE,
)
_ANSWERS = re.compile(r"\b(?:yes|no|not|never|none)\b|是的|不是|没有|不", re.IGNORECASE)
"""A yes/no or a negation is an answer, however short: such a sentence is never dropped."""


_BARE = re.compile(r"^[\W_]*(?:(?:and|or|also|以及|和|与|及)\b[\W_]*)*$", re.IGNORECASE)
"""What is left of a sentence of citations only ("[1] and [2][3]." is "and."): no word of its own.

Short answers ("Before [1].", "对[1]。") hold a word, and are kept."""


def points_only(text: str) -> bool:
    """Whether a sentence (its citations removed) only says where the answer stands.

    A sentence that held nothing but its citations ("[1] and [2][3].") points only too.
    """
    if _BARE.match(text):
        return True
    if not _POINTED_AT.search(text) or _ANSWERS.search(text):
        return False
    terms = terms_of(text)
    places = terms.words & PLACES
    if places and not terms.words & POINTING_WORDS:
        return False
    # a quoted heading beside a place says where, as "the table" does; another quote is a claim
    headings = terms.quotes & terms.names if places else frozenset()
    facts = (terms.names | terms.quotes) - headings
    return not (facts or terms.numbers) and terms.words - places <= POINTING_WORDS
