"""Answers that open by saying the sources do not hold the answer ("The sources do not say.").

The answer prompts ask the model to say so when the sources lack the answer. Such a reply cites
nothing, and what it may add after the admission ("They only mention …") is not an answer from
the sources: it is a decline in the model's words, read here so that it is handled as one (a
typed decline, after a web search where the web is reachable) rather than shown as an answer.
"""

from __future__ import annotations

import re

from adaptive_rag.core.grounding.focus import focus_terms
from adaptive_rag.core.grounding.sentences import split
from adaptive_rag.core.text import found_in

_SOURCES = r"(?:sources?|documents?|context|passages?|texts?|information|materials?)"
_HEDGE = r"(?:explicitly\s+|directly\s+|specifically\s+|clearly\s+|actually\s+)?"

_LACK = re.compile(
    rf"\b{_SOURCES}\b[^.]*?"
    rf"\b(?:do|does|did)\s*(?:not|n't)\s+{_HEDGE}(?:say|state|mention|specify|contain|provide"
    r"|include|give|indicate|explain|address|discuss|cover|offer|list|describe|tell|support)\b"
    rf"|\bthey\s+(?:do|does|did)\s*(?:not|n't)\s+{_HEDGE}(?:say|state|mention|specify|indicate"
    r"|explain|address|discuss|describe|tell)\b"
    rf"|\b(?:is|are|was|were)\s+not\s+{_HEDGE}(?:mentioned|stated|specified|given|provided"
    r"|included|found|listed|described|discussed|addressed|covered)\s+(?:in|by)\s+"
    rf"(?:the|any\s+of\s+the|these|those)\s+(?:provided\s+|given\s+|available\s+)?{_SOURCES}\b"
    r"|\bthere\s+is\s+no\s+(?:information|mention|indication)\b"
    rf"|\b(?:no|none\s+of\s+the)\s+{_SOURCES}\s+(?:says?|states?|mentions?|specif(?:y|ies)"
    r"|covers?|addresses|gives?|provides?)\b"
    r"|\b(?:cannot|can't|could\s*not|couldn't|unable\s+to)\s+(?:be\s+)?(?:determined?|found|find"
    rf"|answered?|tell|say|confirm(?:ed)?)\b[^.]*?\b{_SOURCES}\b"
    r"|(?:来源|资料|文档|材料|文中|原文|上述|以上|所给|提供的)[^。！？]{0,8}?(?:均|都|并)?(?:没有|未|无|不)"
    r"(?:提到|提及|说明|给出|包含|涉及|指出|明确|相关|说|记载)"
    r"|没有(?:提到|提及|说明|给出|相关信息|相关说法)"
    r"|(?:无法|不能)(?:确定|回答|得知|判断|确认)",
    re.IGNORECASE,
)
"""A sentence saying the sources do not give the answer, in English or Chinese."""

_ANSWERS = re.compile(
    rf"^\s*(?:yes|no)\b(?!\s+{_SOURCES}\b)(?!\s+(?:mention|details?)\b)"
    r"|^\s*(?:是的|不是|是|否)[，,。]",
    re.IGNORECASE,
)
"""A sentence opening with yes or no answers the question ("No, a packet cannot be lost"), but not
"No sources say." A "No," or "不，" right before the admission only introduces it (below)."""

_INTRODUCES = re.compile(r"^\s*(?:no|不是|不)\s*[,，]\s*", re.IGNORECASE)
"""An opening "No," that only leads into the admission: "No, the sources do not say that …"."""

_LEAD_IN = re.compile(
    r"^\s*(?:unfortunately|regrettably|sorry|i'm sorry|however|很抱歉|抱歉|遗憾的是|很遗憾"
    rf"|(?:based\s+on|according\s+to)\s+the\s+(?:provided\s+|given\s+)?{_SOURCES}"
    r"|根据(?:所?提供的|现有的|上述|以上)?(?:资料|文档|来源|信息|材料|内容))\s*[,，]\s*",
    re.IGNORECASE,
)
"""Words before the admission: "Unfortunately, …", "Based on the provided sources, …", "根据资料，"
(read past, like the "No," below)."""

_OPENING_WORDS = 4
"""After a leading "No," the admission starts within these words ("No, sadly the sources …")."""

_SUBJECT_WORDS = 15
"""Words the admission's subject may run to ("The leave policy for contractors in Oslo is not
stated in the sources"); a stated fact before it has a number or a clause break instead."""

_BREAK = re.compile(
    r"[,;:，；：]|\b(?:though|although|but|while|whereas|however|because|since)\b", re.IGNORECASE
)


def says_sources_lack(answer: str) -> bool:
    """Whether an answer says its sources do not hold the answer, and cites nothing.

    Its first sentence must be the admission: opening with it ("The sources do not say how many
    people moved.", "No sources say."), led into by a bare "No," ("No, the sources do not say
    that the kettle is red."), or with the asked thing as its subject ("The leave policy for
    contractors is not explicitly stated in the given sources."). No sentence may cite: "The fee
    is 10% [1]. The sources do not say more." is an answer, and so is one whose first sentence
    answers yes or no ("No, a packet cannot be lost.") or states a fact before the admission
    ("The kettle holds 1.7 litres, though the sources do not say its weight.").
    """
    sentences = split(answer.strip())
    if not sentences or any(s.cites for s in sentences):
        return False
    first = sentences[0].text
    lead_in = _LEAD_IN.match(first)
    first = first[lead_in.end() :] if lead_in else first
    led = _INTRODUCES.match(first)
    body = first[led.end() :] if led else first
    found = _LACK.search(body)
    if found is None or (led is None and _ANSWERS.match(first)):
        return False
    before = body[: found.start()]
    if re.search(r"\d", before) or _BREAK.search(before):
        return False
    if led is not None:  # "No, the sources do not say …": the admission itself, straight away
        return len(before.split()) <= _OPENING_WORDS
    return len(before.split()) <= _SUBJECT_WORDS and len(before) <= 4 * _SUBJECT_WORDS


def admits_lacking(answer: str, question: str) -> bool:
    """Whether an uncited yes or no then says its sources do not hold what the question asks.

    "No, there is no extra pay for the Saturday shifts. The sources do not say anything about
    extra pay for these shifts." restates the question as its claim and then takes it back: a
    later sentence admits the sources lack at least half of the question's focus (core.grounding.
    focus). An answer that cites, or whose admission is about something else ("Yes. The sources
    do not mention other models."), stays an answer.
    """
    sentences = split(answer.strip())
    if len(sentences) < 2 or any(s.cites for s in sentences):
        return False
    if not _ANSWERS.match(sentences[0].text):
        return False
    focus = focus_terms(question)
    asked = len(focus.names | focus.numbers | focus.words)
    if not asked:
        return False
    for sentence in sentences[1:]:
        if _LACK.search(sentence.text):
            held = found_in(focus, sentence.text)
            if 2 * len(held.names | held.numbers | held.words) >= asked:
                return True
    return False


def admits_anywhere(answer: str) -> bool:
    """Whether any sentence of an answer says its sources do not hold something, cited or not."""
    return any(_LACK.search(s.text) for s in split(answer.strip()))
