"""Whether sources hold what a yes/no question asks about, not only what it is about.

A yes or a no repeats the question as a claim: "是的，退货需要支付运费。[1]" says nothing the
question did not, so the sentence check finds no new word to refute it by. The answer stands only
when its sources hold the question's focus: its names and content words less the generic verbs
of asking ("get", "need", "可以"), each found in the sources (core.text.terms' matching: names
whole, words by stem, Chinese by string). A source on returns that says nothing of shipping costs
holds the question's subject (退货) but not its focus (支付, 运费).

A focus of four terms or more may miss one of every four (a question's adjective or a verb the
source words otherwise); a shorter one must be held whole. Terms a source cannot be checked for
(Chinese words against an English source) are left out; when a content word is among them, what
is asked is not known from the sources, and neither is the focus. A source's language is that of
most of its words (core.text.language_of), as the sentence check reads it: an English page that
names a Chinese page's title is English.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adaptive_rag.core.question import asks_property_of, speaks_of_own
from adaptive_rag.core.text import CJK, Terms, found_in, language_of, stem, terms_of

GENERIC = frozenset(
    {
        *(
            stem(w)
            for w in (
                "get have has need require can could may allow allowed make use do does take go"
                " provide provides offer offers"
                " there any also still ever really actually currently possible able own time"
                " article report suggest mention say state source document according publish"
            ).split()
        ),
        *(
            "需要 可以 能够 能 是否 有没有 有 没有 允许 还 会 要 一般 现在 目前 提供"
            " 时候 的时候 自己 能否 可否 情况 一下"
        ).split(),
    }
)
"""Words that ask (whether one may, can, must, has) rather than name what is asked about."""

SLACK_EVERY = 4
"""A focus may miss one term in this many (none when it has fewer)."""

MOST_TERMS = 6
"""A yes/no question with more focus terms than this asks several things at once (a comparison
of two articles): its focus is not judged whole, the sentence check reads its claims."""


@dataclass(frozen=True)
class Focus:
    """What a yes/no question asks about, and which of it the sources hold."""

    terms: tuple[str, ...]
    """The focus terms the sources could be checked for."""
    missing: tuple[str, ...]
    """Of them, those no source holds."""
    unchecked: tuple[str, ...] = ()
    """The focus's Chinese terms, or English words, no source could be checked for (another
    script)."""

    @property
    def known(self) -> bool:
        """Whether the focus could be checked: some term could, and no content word escaped.

        "K2 打印机支持蓝牙吗？" over English sources checks "K2" only: what is asked of it
        (支持, 蓝牙) is not known, so neither is the focus.
        """
        return bool(self.terms) and not self.unchecked and len(self.terms) <= MOST_TERMS

    @property
    def wide(self) -> bool:
        """Whether the question asks several things at once (more than MOST_TERMS terms)."""
        return len(self.terms) > MOST_TERMS

    @property
    def held(self) -> bool:
        """Whether the sources hold the focus (within the slack), or it is too wide to judge."""
        return self.wide or len(self.missing) <= len(self.terms) // SLACK_EVERY

    def why(self) -> str:
        """Say what the sources lack ('' when they hold the focus)."""
        if self.held:
            return ""
        return "the sources do not hold what the question asks: " + ", ".join(self.missing)


def focus_terms(question: str) -> Terms:
    """Return a question's focus: its names and content words less the generic ones."""
    terms = terms_of(question)
    own = {stem(w) for w in " ".join(speaks_of_own(question)).split()}
    words = frozenset(
        w
        for w in terms.words
        if w not in GENERIC and stem(w) not in GENERIC and stem(w) not in own and w not in own
    )
    return Terms(names=terms.names, numbers=terms.numbers, words=words, quotes=terms.quotes)


def _compounds(question: str, words: frozenset[str], zh_text: str) -> frozenset[str]:
    """Return a question's Chinese words as the units the sources name them by.

    jieba cuts one name into several words (苏州 / 配送 / 中心), which would count one subject
    as three terms and let the slack excuse the word actually asked about (食堂). A word inside a
    longer word of the question is dropped (维修 in 维修组); words next to each other in the
    question are joined while the sources hold them joined (苏州配送中心).
    """
    zh = sorted((w for w in words if CJK.search(w)), key=len, reverse=True)
    whole = [w for w in zh if not any(w != longer and w in longer for longer in zh)]
    placed = sorted((question.find(w), w) for w in whole if question.find(w) >= 0)
    joined: list[tuple[int, str]] = []
    for at, word in placed:
        if joined and joined[-1][0] + len(joined[-1][1]) == at:
            together = joined[-1][1] + word
            if together in zh_text:
                joined[-1] = (joined[-1][0], together)
                continue
        joined.append((at, word))
    unplaced = {w for w in whole if question.find(w) < 0}
    latin = {w for w in words if not CJK.search(w)}
    return frozenset(latin | unplaced | {w for _, w in joined})


def focus_of(question: str, sources: Sequence[str]) -> Focus:
    """Return which of a yes/no question's focus the sources hold, together."""
    focus = focus_terms(question)
    zh_text = "".join(s for s in sources if CJK.search(s))
    units = _compounds(question, focus.names | focus.words, zh_text)
    focus = Terms(
        names=focus.names & units,
        numbers=focus.numbers,
        words=units - focus.names,
        quotes=focus.quotes,
    )
    zh_sources = [s for s in sources if language_of(s) == "zh"]
    latin_sources = [s for s in sources if language_of(s) == "en"]
    checkable: list[str] = []
    missing: list[str] = []
    unchecked: list[str] = []
    for term in sorted(focus.names | focus.numbers | focus.words | focus.quotes):
        chinese = bool(CJK.search(term))
        pool = zh_sources if chinese else list(sources)
        if chinese and not pool or not chinese and term in focus.words and not latin_sources:
            unchecked.append(term)  # Chinese against English sources, or an English word reversed
            continue
        checkable.append(term)
        one = _alone(term, focus)
        if not any(len(found_in(one, source)) for source in pool):
            missing.append(term)
    return Focus(tuple(checkable), tuple(missing), tuple(unchecked))


def unnamed_subject(question: str, cited: Sequence[str], shown: Sequence[str]) -> str:
    """Return the question's one name when the sources an answer cites lack it and another holds it.

    "What is Marleen Vos's email address?" answered with the help desk's address from the help
    desk's page binds a fact of one thing to a source on another, though the page on Marleen Vos
    was shown beside it. Only for a question of one name that asks a property of the named thing
    itself, in its possessive (core.question.asks_property_of): one of several things (a
    comparison, two articles) may be answered from a source on one of them, and one found through
    it ("the engineer who designed the Carrow Lock") from a source on what was found. A cited
    source holding any word of the name ("Ms Vos") holds it; a name most sources shown hold (the
    company's own, "Norhaven") is what the whole knowledge base is about, and a source need not
    repeat it. '' when the answer is not so bound.
    """
    names = focus_terms(question).names
    if len(names) != 1 or not cited:
        return ""
    (name,) = names
    if not asks_property_of(question, name):
        return ""
    alone = Terms(names=frozenset({name}))
    parts = Terms(
        names=frozenset(part for part in name.split() if len(part) > 2) or frozenset({name})
    )
    if any(found_in(parts, source).names for source in cited):
        return ""
    holding = sum(bool(found_in(alone, source).names) for source in shown)
    return name if 0 < holding and 2 * holding <= len(shown) else ""


def _alone(term: str, kinds: Terms) -> Terms:
    """Return one focus term as Terms of its own kind (a name, a number, a word or a quote)."""
    one = frozenset({term})
    return Terms(
        names=one & kinds.names,
        numbers=one & kinds.numbers,
        words=one & kinds.words,
        quotes=one & kinds.quotes,
    )


def held_in(question: str, focus: Focus, texts: Sequence[str]) -> list[int]:
    """Return, per text, how many of a focus's terms it holds, matched as the sources were."""
    asked = focus_terms(question)
    kinds = Terms(
        names=asked.names,
        numbers=asked.numbers,
        words=frozenset(focus.terms) - asked.names - asked.numbers - asked.quotes,
        quotes=asked.quotes,
    )
    terms = [_alone(term, kinds) for term in focus.terms]
    return [sum(bool(len(found_in(one, text))) for one in terms) for text in texts]
