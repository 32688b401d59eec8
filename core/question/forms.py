"""What a question's form alone says: small talk that needs no fact, or a general-knowledge form.

Small talk (a greeting, thanks, a goodbye or an apology, a question to the assistant about
itself; a sum; a translation) is answered with no search and no check: there is no fact in it to
know or look up. A greeting is replied to by the model told what the assistant does
(prompts.generate TALK_SYSTEM), a question about the assistant with what it does (ABOUT), neither
labelled general knowledge. A general-knowledge form (a definition, what an abbreviation stands
for, "什么是 X") asks what any encyclopedia says; it is answered from the model's own knowledge
when the knowledge base holds no likely source for it, or when it asks what one term means
(`defined_term`) and the knowledge base has no page on the term itself, and the question names
nothing the knowledge base owns (nodes/classify, nodes/answer_general).
"""

from __future__ import annotations

import re
from typing import Literal

SmallTalk = Literal["greeting", "about", "arithmetic", "translation"]
"""A pleasantry; a question to the assistant about itself; a sum; a translation."""

_ASKS = re.compile(
    r"\b(what|how|why|when|where|who|whom|whose|which|can|could|do|does|is|are|tell|explain"
    r"|show|give|list|find|(?<!your )(?<!the )(?<!for )help|describe)\b"
    r"|什么|怎么|为什么|哪|谁|吗|呢|多少|几|告诉|介绍|说明|解释|帮(?!助)",
    re.IGNORECASE,
)
"""A word that asks or bids: "Thanks, and how do I reset it" is a question, not a pleasantry.
Help as a noun ("Thanks for your help!", "谢谢你的帮助") bids nothing."""

_PLEASANTRY = re.compile(
    r"^\s*(?:(?:hi|hello|hey|thanks|thank you|many thanks|cheers|good (?:morning|afternoon|evening"
    r"|night)|bye|goodbye|see you|take care|have a (?:nice|good|great|lovely) \w+|sorry"
    r"|my apologies|apologies|my bad|oops|ok|okay|got it|great|cool|nice|perfect|sounds good"
    r"|never mind|how are you(?: doing)?(?: today)?|that'?s (?:great|helpful|perfect|all)"
    r"|that is (?:great|helpful|all)|awesome|wonderful|excellent)(?!\w)"
    r"|你好吗|你好|您好|谢谢|多谢|感谢|非常感谢|早上好|早安|下午好|晚上好|晚安|再见|拜拜|回头见|祝你"
    r"|周末愉快|抱歉|对不起|不好意思|好的|明白了|知道了|没问题|没事了|最近怎么样|辛苦了|辛苦啦|太好了"
    r"|太棒了)",
    re.IGNORECASE,
)
"""A greeting, thanks, a goodbye, an apology or an acknowledgement, as a message opens."""

_ABOUT_YOU = re.compile(
    r"^[\s!.,。！，~]*(?:(?:please|and|so|请问|那)\s*)?"
    r"(?:(?:can you )?tell me (?:what|how) you can (?:do|help(?: me)?(?: with)?)"
    r"|what (?:can|do) you do(?: for me)?|what can you help (?:me )?with|what are you able to do"
    r"|who (?:are you|am i (?:talking|speaking|chatting) (?:to|with))|what are you"
    r"|what is your name|how can you help(?: me)?|what can i ask(?: you)?|what do you know"
    r"|你能做什么|你会做什么|你可以做什么|你能做些什么|你会什么|你是谁|你能帮我做什么|你能帮我什么"
    r"|你可以帮我做什么|你有什么功能|你有哪些功能|你能干什么|你叫什么名字?|你是什么|你有什么用)"
    r"[\s!.,。！，?？~]*$",
    re.IGNORECASE,
)
"""A question to the assistant about itself ("What can you do?", "你是谁？"), alone or after a
greeting: small talk, answered with what the assistant does, not a fact to look up."""

_HOW_ARE_YOU = re.compile(
    r"^[\s!.,。！，~]*(?:how (?:is|was) your (?:day|weekend|morning|evening)(?: going)?"
    r"|how are you(?: doing)?(?: today)?|how'?s it going|你好吗|最近怎么样|最近好吗)"
    r"[\s!.,。！，?？~]*$",
    re.IGNORECASE,
)
"""How the assistant is, after a pleasantry ("Good morning! How is your day going?"): a
greeting, though it asks."""

_TAIL = 60
"""Characters a pleasantry may run on after its opening words ("Sorry, I made a typo.")."""

_NUMBER = r"\d+(?:[.,]\d+)?%?"
_OPERATION = re.compile(
    r"\s*(?:plus|minus|times|multiplied\s+by|divided\s+by|over|to\s+the\s+power\s+of|squared"
    r"|cubed|(?:the\s+)?square\s+root\s+of|percent\s+of|of|and|mod(?:ulo)?"
    r"|加上?|减去?|乘以|乘|除以|的平方根|的立方根|平方根|的平方|的立方|的|次方|百分之"
    r"|[+\-*/×÷()=^%])\s*",
    re.IGNORECASE,
)
_SUM_FRAME = re.compile(
    r"^\s*(?:what\s+is|what's|how\s+much\s+is|calculate|compute|work\s+out|计算|请计算|算一下)?"
    r"(?P<body>.*?)"
    r"(?:\s*(?:=|equals?|等于多少|等于几|等于|是多少|是几|得多少|得几))?\s*[?？。.!！]?\s*$",
    re.IGNORECASE,
)
"""A sum in words or signs, English or Chinese: "What is 12 times 7?", "81 的平方根是多少？"."""


def _is_sum(question: str) -> bool:
    """Whether a question is nothing but numbers, operations and the words that frame a sum."""
    framed = _SUM_FRAME.match(question.strip())
    body = framed.group("body") if framed else ""
    numbers = re.findall(_NUMBER, body)
    if not numbers:
        return False
    rest = re.sub(_NUMBER, " ", body)
    operations = _OPERATION.findall(rest)
    left = _OPERATION.sub("", rest).strip()
    operates = any(o.strip() not in ("of", "and", "的") for o in operations) or "%" in body
    return not left and operates


def _asks_about_you(question: str) -> bool:
    """Whether a message asks the assistant about itself, alone or after a pleasantry."""
    opened = _PLEASANTRY.match(question)
    return bool(_ABOUT_YOU.match(question[opened.end() :] if opened else question))


def _is_pleasantry(question: str) -> bool:
    """Whether a message is a pleasantry with at most a short tail that asks nothing."""
    opened = _PLEASANTRY.match(question)
    if not opened:
        return False
    tail = question[opened.end() :]
    if re.fullmatch(r"[\s!.,。！，?？~]*", tail) or _HOW_ARE_YOU.match(tail):
        return True  # "How are you?", "你好吗？": the whole message
    return len(tail) <= _TAIL and not _ASKS.search(tail) and "?" not in tail and "？" not in tail


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


_TERM = re.compile(
    r"^\s*(?:what\s+(?:is|are)\s+(?:an?\s+)?(?!the\b|this\b|that\b|my\b|our\b|your\b|its\b)"
    r"(?P<en>[\w\s-]{2,40}?)\s*\??"
    r"|what\s+does\s+(?P<abbr>[\w.-]{2,12})\s+stand\s+for\s*\??"
    r"|(?:define|explain)\s+(?:an?\s+)?(?P<bid>[\w\s-]{2,40}?)\s*[.?]?"
    r"|what\s+is\s+the\s+(?:meaning|definition)\s+of\s+(?:an?\s+)?(?P<of>[\w\s-]{2,40}?)\s*\??"
    r"|什么(?:是|叫)\s*(?P<zh>[^，,。？?的]{2,20}?)\s*[？?。]?"
    r"|(?P<zh_is>[^，,。？?的\s][^，,。？?的]{1,19}?)\s*(?:是什么意思|指的是什么|的定义是什么|是什么)"
    r"\s*[？?。]?)\s*$",
    re.IGNORECASE,
)
"""A definition of one term: "What is a forklift?", "什么是叉车？", "VPN是什么意思？"; not of a
thing's part or property ("叶乔波的籍贯是什么？", "What is the capital of France?")."""


_NOT_A_TERM = re.compile(
    r"\b(?:the|this|that|these|those|my|our|your|his|her|their|its|it|i|we|you|he|she|they|there"
    r"|what|which|who|how|why|when|where|with|to|for|of|in|on|at|about|from|going|wrong|new"
    r"|happening|up)\b",
    re.IGNORECASE,
)
"""Words no term is made of: "What is it?", "What is going on?", "Explain the returns policy"."""

TERM_WORDS = 4
"""A term runs to at most this many words ("multi-factor authentication", "vector database")."""


def defined_term(question: str) -> str:
    """Return the term a definition question asks the meaning of ('' for any other question)."""
    found = _TERM.match(question)
    if not found:
        return ""
    term = next((t.strip() for t in found.groups() if t and t.strip()), "")
    if _NOT_A_TERM.search(term) or len(term.split()) > TERM_WORDS:
        return ""
    return term


def small_talk(question: str) -> SmallTalk | None:
    """Return what kind of small talk a question is (None for a question that asks a fact)."""
    if _is_sum(question):
        return "arithmetic"
    if _asks_about_you(question):
        return "about"
    if _is_pleasantry(question):
        return "greeting"
    if _TRANSLATE.match(question):
        return "translation"
    return None


def general_form(question: str) -> bool:
    """Whether a question asks a definition, as any encyclopedia would answer it."""
    return bool(_DEFINITION.match(question) or _DEFINITION_ZH.match(question))
