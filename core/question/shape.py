"""Question shapes a rule can see: independent parts (compare A and B) or a nested reference.

A nested (bridge) reference names something only by a fact about it ("the inventor of X",
"the company that bought Y", "发明电话的人"): it must be found first, and the question then asked
of what was found. Such questions need sequential hops; independent parts can be searched at once.
"""

from __future__ import annotations

import re

PARTS = re.compile(
    r"\b(compare|comparison|differences? between|versus|vs\.?|pros and cons|advantages and"
    r" disadvantages|step by step|both .+ and)\b|比较|对比|区别|差异|异同|优缺点|分别",
    re.IGNORECASE,
)
"""Words that join independent parts: each part can be searched on its own."""

COMPARISON = re.compile(
    r"\bsame (country|nationality|city|place|year|age|company|genre|language)\b"
    r"|\b(earlier|later|first|older|younger|longer|shorter|bigger|larger|smaller|more recently)\b"
    r".*\bor\b|\bor\b.*\b(earlier|later|first|older|younger|more recently)\b",
    re.IGNORECASE,
)
"""A choice between two named things ("which was released first, A or B?")."""

_ROLE = (
    r"(inventor|founder|co-founder|creator|author|writer|director|producer|designer|architect"
    r"|composer|painter|publisher|manufacturer|developer|owner|ceo|chairman|president|leader"
    r"|father|mother|wife|husband|spouse|son|daughter|brother|sister|parent|successor"
    r"|predecessor|headquarters|birthplace|capital|performer|singer|star|coach|employer"
    r"|parent company|lead singer|team|school|university|studio|label)"
)
_OF_SOMETHING = rf"\b(the|a|an|its|their|his|her)\s+(\w+\s+){{0,2}}?{_ROLE}s?\s+(of|behind|for)\b"
_HOLDER = (
    r"(person|man|woman|company|firm|country|city|town|state|film|movie|show|series|book|novel"
    r"|album|song|band|group|team|club|player|actor|actress|singer|writer|author|scientist|artist"
    r"|politician|university|school|organization|organisation|river|building|bridge)"
)

_NESTED = [
    # the ROLE of X ... then something else is asked of it: "where was the inventor of X born?"
    re.compile(
        rf"^\s*(where|when|what|which|who|whom|how|in (which|what)|on (which|what))\b.*?"
        rf"{_OF_SOMETHING}.+?\s(born|die|died|live|lived|located|based|founded|formed|educated"
        rf"|study|studied|work|worked|marry|married|buried|raised|grow up|grew up|start|started"
        rf"|play|played|win|won|join|joined|release|released|establish|established)\b",
        re.IGNORECASE,
    ),
    # a role of a role: "the wife of the director of X", "the capital of the country where ..."
    re.compile(rf"{_ROLE}s?\s+of\s+(the|a|an)\s+(\w+\s+){{0,2}}?{_ROLE}s?\s+of\b", re.IGNORECASE),
    re.compile(rf"\b{_ROLE}s?\s+of\s+the\s+{_HOLDER}\s+(where|which|that|who|whose|whom)\b", re.I),
    # kinship that composes two links: "the paternal grandfather of X", "X's mother-in-law"
    re.compile(
        r"\b((paternal|maternal)\s+)?(grandfather|grandmother|grandparent|grandson|granddaughter"
        r"|father-in-law|mother-in-law|son-in-law|daughter-in-law|uncle|aunt|nephew|niece)s?\b",
        re.IGNORECASE,
    ),
    # a double possessive: "X's founder's birthplace"
    re.compile(r"\w's\s+[\w-]+(\s[\w-]+)?'s\s+\w+", re.IGNORECASE),
    # something named by a relative clause, inside a question: "the company that bought X"
    re.compile(
        rf"^\s*(where|when|what|which|who|whom|how|in (which|what))\b.*?\b(the|a|an)\s+(\w+\s+)"
        rf"{{0,2}}?{_HOLDER}\s+(who|that|which|whose|where)\s+\w+",
        re.IGNORECASE,
    ),
    # Chinese: "发明电话的人出生在哪里", "X的创始人毕业于哪所大学", "X的导演的妻子是谁"; not
    # "面积最大的国家是哪个", which asks which one the role is (是哪个/是哪一个/是哪位/是哪家)
    re.compile(
        r"的(人|公司|企业|国家|城市|作者|导演|演员|创始人|发明者|发明人|设计者|建筑师|歌手|球队)"
        r"(出生|毕业|位于|来自|在哪|是哪(?!个|一个|位|家)|哪一年|何时|什么时候"
        r"|的(妻子|丈夫|父亲|母亲|首都|总部|国籍|出生地))"
    ),
]


def has_parts(question: str) -> bool:
    """Whether the question joins independent parts (compare, both, versus, A or B)."""
    return bool(PARTS.search(question) or COMPARISON.search(question))


_COMPARED = [
    # "compare A and B (on C)", "the differences between A and B", "A versus B", "A vs. B"
    re.compile(
        r"\b(?:compare|comparison of|differences? between|contrast)\s+(?:the\s+)?(?P<a>.+?)"
        r"\s+(?:and|with|to|vs\.?|versus)\s+(?:the\s+)?(?P<b>.+?)(?P<tail>\s+(?:on|in|for|by)\s+.+)?"
        r"[?.!]?$",
        re.IGNORECASE,
    ),
    re.compile(
        r"^(?P<a>.+?)\s+(?:vs\.?|versus)\s+(?P<b>.+?)(?P<tail>\s*[:,-]\s*.+)?[?.!]?$",
        re.IGNORECASE,
    ),
    # "which ..., A or B?"
    re.compile(r"^(?P<tail>.+?),\s*(?P<a>[^,]{2,80}?)\s+or\s+(?P<b>[^,]{2,80}?)[?.!]?$", re.I),
    # 比较A和B / A和B的区别 / A与B哪个更…
    re.compile(r"^(?:请)?(?:比较|对比)(?P<a>.+?)(?:和|与|跟|同)(?P<b>.+?)(?P<tail>的.+)?[？?。]?$"),
    re.compile(
        r"^(?P<a>.+?)(?:和|与|跟)(?P<b>.+?)(?P<tail>的?(?:区别|差异|异同|优缺点|哪个|谁).*)[？?。]?$"
    ),
]
"""Questions that name the things they compare: each is searched on its own."""


def split_parts(question: str) -> list[str]:
    """Return the two things a comparison names, each as a query; [] when none split.

    "Compare the warranty of the Kestrel sensors and the Heron hub" gives "the warranty of the
    Kestrel sensors" and "the Heron hub ... warranty"-style parts: each thing with what the
    question asks of it. A question that names no two things this way is searched whole.
    """
    text = question.strip()
    for pattern in _COMPARED:
        found = pattern.search(text)
        if not found:
            continue
        tail = (found.groupdict().get("tail") or "").strip(" ,:-")
        parts = [found.group(g).strip(" ,") for g in ("a", "b")]
        if not all(parts):
            continue
        head = _OF.match(parts[0])  # "the warranty of A and B": B's warranty too
        if head and " of " not in f" {parts[1]} ":
            parts[1] = f"{head.group(1)} of {parts[1]}"
        return [f"{part} {tail}".strip() for part in parts]
    return []


_OF = re.compile(r"^(?:the\s+)?(\w+(?:\s\w+)?)\s+of\s+\S", re.IGNORECASE)


def nested_reference(question: str) -> bool:
    """Whether the question names something only by a fact that must be looked up first."""
    return any(pattern.search(question) for pattern in _NESTED)


def asks_property_of(question: str, name: str) -> bool:
    """Whether the question asks a property of the named thing itself, in its possessive.

    "What is Marleen Vos's email address?" does; "What was the Carrow Lock's designer's first
    job?" asks one of another thing, found through it (a role of it), and so does a nested
    reference ("the engineer who designed the Carrow Lock").
    """
    own = re.compile(rf"{re.escape(name)}['’]s\s+(?!(\w+\s+){{0,2}}?{_ROLE}s?\b)\w+", re.IGNORECASE)
    return bool(own.search(question)) and not nested_reference(question)


_ENTITY = re.compile(
    r"(?<!^)(?<![.!?]\s)\b[A-Z][a-zA-Z]+|\d|[\"“”《》「」]|'[^']+'",
)
_CJK_CHAR = re.compile(r"[\u3400-\u9fff]")


def length(question: str) -> int:
    """Count words, each Chinese character counting as one (Chinese has no spaces)."""
    return len(re.findall(r"[\u3400-\u9fff]|[^\W\u3400-\u9fff]+", question))


def names_an_entity(question: str) -> bool:
    """Whether a question may name something specific (a name, number, date or title).

    A small model cannot know such facts reliably, so they are looked up, whatever it says.
    Chinese names cannot be told apart without capitals, so a Chinese question always may.
    """
    return bool(_ENTITY.search(question.strip()) or _CJK_CHAR.search(question))


_YES_NO = re.compile(
    r"(^|[,;:]\s*)(is|are|was|were|am|do|does|did|has|have|had|can|could|will|would|should|shall"
    r"|may|might|must)(n't)?\b|[吗么][?？]?\s*$|是否|是不是|有没有|能不能|会不会|可不可以",
    re.IGNORECASE,
)


_ASKS_WHAT = re.compile(
    r"^\s*(who|whom|whose|what|which|where|when|why|how)\b|什么|谁|哪(?!怕)|几(?!乎)|多少|怎么|为什么|如何",
    re.IGNORECASE,
)
"""A question word: "Who is the man that founded X, was knighted, and ...?" asks for a name.

哪怕 (even if) and 几乎 (almost) are not 哪 and 几: "几乎不漏水吗？" still asks yes or no."""


_AMOUNT = re.compile(
    r"\bhow\s+(much|many|long|big|large|heavy|far|old|tall|high|wide|deep|loud|fast)\b"
    r"|(?<!哪)多少|(?<![哪这那])几(?!乎|种|类|样|项|位|件|个方面)"
    r"|多(大|长|久|重|高|远|宽|深|快|贵|响)",
    re.IGNORECASE,
)
"""A question that asks for an amount: a number, a size, a length of time, a price.

Not "how often" (answered "daily"), nor 哪几 or 几种 (which ones, which kinds: answered by names).
"""


def asks_amount(question: str) -> bool:
    """Whether a question asks how much, how many or how long (多少, 几, 多久 in Chinese)."""
    return bool(_AMOUNT.search(question))


def asks_yes_no(question: str) -> bool:
    """Whether a question asks for yes or no (an auxiliary opens a clause; 吗, 是否 in Chinese)."""
    question = question.strip()
    return bool(_YES_NO.search(question)) and not _ASKS_WHAT.search(question)
