"""Answers that open by saying the sources do not hold the answer ("The sources do not say.").

The answer prompts ask the model to say so when the sources lack the answer. Such a reply cites
nothing, and what it may add after the admission ("They only mention …") is not an answer from
the sources: it is a decline in the model's words, read here so that it is handled as one (a
typed decline, after a web search where the web is reachable) rather than shown as an answer.
"""

from __future__ import annotations

import re

from adaptive_rag.core.sentences import split

_LACK = re.compile(
    r"\b(?:sources?|documents?|context|passages?|texts?|information)\b[^.]*?"
    r"\b(?:do|does|did)\s*(?:not|n't)\s+(?:say|state|mention|specify|contain|provide|include"
    r"|give|indicate|explain|address|discuss|cover|offer|list|describe|tell|support)\b"
    r"|\bthey\s+(?:do|does|did)\s*(?:not|n't)\s+(?:say|state|mention|specify|indicate|explain"
    r"|address|discuss|describe|tell)\b"
    r"|\b(?:is|are|was|were)\s+not\s+(?:mentioned|stated|specified|given|provided|included"
    r"|found|listed|described|discussed)\s+in\s+(?:the|any\s+of\s+the)\s+"
    r"(?:provided\s+|given\s+)?(?:sources?|documents?|context|passages?|texts?)\b"
    r"|\bthere\s+is\s+no\s+(?:information|mention|indication)\b"
    r"|\b(?:no|none\s+of\s+the)\s+(?:sources?|documents?)\s+(?:says?|states?|mentions?)\b"
    r"|(?:来源|资料|文档|材料|文中|原文|上述|以上)[^。！？]{0,8}?(?:均|都|并)?(?:没有|未|无|不)"
    r"(?:提到|提及|说明|给出|包含|涉及|指出|明确|相关|说|记载)"
    r"|没有(?:提到|提及|说明|给出|相关信息|相关说法)",
    re.IGNORECASE,
)
"""A sentence saying the sources do not give the answer, in English or Chinese."""

_ANSWERS = re.compile(r"^\s*(?:yes|no)\b|^\s*(?:是的|不是|是|否)[，,。]", re.IGNORECASE)
"""A sentence opening with yes or no answers the question ("No, the sources do not say X")."""


_OPENING_WORDS = 4
"""The admission must start within a sentence's first words ("Unfortunately, the sources …"),
not after a stated fact ("The kettle holds 1.7 l, though the sources do not say its weight.")."""


def says_sources_lack(answer: str) -> bool:
    """Whether an answer opens by saying its sources do not hold the answer, and cites nothing.

    Its first sentence must open with the admission, and no sentence may cite: "The sources do
    not say how many people moved." is such an answer, and so is "The sources do not say. They
    only mention the oil crisis."; "The fee is 10% [1]. The sources do not say more." is not, nor
    is one whose first sentence answers yes or no or states a fact before the admission.
    """
    sentences = split(answer.strip())
    if not sentences or any(s.cites for s in sentences):
        return False
    first = sentences[0].text
    found = _LACK.search(first)
    if found is None or _ANSWERS.match(first):
        return False
    before = first[: found.start()]
    return len(before.split()) <= _OPENING_WORDS and not re.search(r"\d", before)
