"""Whose thing a question asks about: the knowledge base's own, or the world's.

A question about the knowledge base's own things (its products, people, places and policies, or
the asker's own organisation) has one honest source: the documents. When they do not answer it,
the model's general knowledge would only invent a policy or a figure, so such a question is
declined, never answered from general knowledge, and an answer to it that the check cannot
support is declined too. A question about the world ("What is the capital of France?") may be
answered from general knowledge even when the knowledge base mentions France somewhere.

Four signs, read from the question and the documents its search found, no model call:
- it speaks of the asker's organisation: "our", "my", "the company", "employees", "我们", "公司",
  "员工", ..., or opens by asking what the asker may do, must do or gets ("Can I …?", "Do we get
  …?", "我可以…吗？") while the relevance judge kept a document on it (a company's rules; "Can I
  freeze milk?" with no such source is the world's);
- it asks what documents say ("an article from The Verge", "according to the report", "这篇报道");
- it names what a document found is about: the name stands in the document's title or section
  heading (the Kestrel K2's product page for "K2", whatever "K2" means in general text; a common
  Chinese name only with the question's word next to it: 苏州配送中心, not 中国 in 中国区), or a
  word of the question is a title or heading word of a document the relevance judge kept ("the
  warranty" beside a "Warranty" page, 退货 beside a "退货" section); for a question that asks
  what a term means, only a title or heading that is the term itself ("Warranty" for "What is a
  warranty?", a Chinese heading holding it: 叉车安全), not a page that only lists it;
- it names, not to ask its definition, something the documents found hold and general text
  seldom uses (below COMMON_FROM on wordfreq's Zipf scale: "Atlas" the HR system, "Heron" the
  hub; not "France" or "Canada", which an encyclopedia's passages mention as often as any text),
  a Chinese word jieba's dictionary lacks counted as a name (陈静).
A rare name no document searched holds makes no question the knowledge base's; answer_general
keeps it from general knowledge when it names one thing ("Kestrel K2"), not a term ("RFID").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from adaptive_rag.core.question.forms import defined_term, general_form
from adaptive_rag.core.text import CJK, cut_zh, fold, is_term, key, terms_of, unlisted

_SPEECH = re.compile(
    r"\b(?:our|ours|ourselves|my|mine|the company(?:'s)?|this company|company policy"
    r"|employees?|staff|colleagues?|co-workers?|coworkers?|my manager|the office|our office"
    r"|the handbook|onboarding|payroll|(?-i:HR))\b"
    r"|我们|咱们|本公司|公司|贵公司|员工|同事|我的|入职|本单位|单位里",
    re.IGNORECASE,
)
"""Words that speak of the asker's own organisation, its people, rules and places."""

_APPLIES = re.compile(
    r"^\W*(?P<en>(?:can|may) (?:I|we)|(?:am I|are we) (?:allowed|entitled|eligible|required)"
    r"|do (?:I|we) (?:get|need|have to))\b"
    r"|^\W*(?P<zh>(?:请问)?(?:我们?(?:可以|能不能|能否|需要)"
    r"|(?:[\u4e00-\u9fff]{1,6}?[里内])?(?:可以|能不能|能否|是否可以)(?!多|几|什么)))",
    re.IGNORECASE,
)
"""A question that opens by asking what the asker may do, must do or gets ("Can I …?", "Do we get
…?", "我可以…吗？"; in Chinese the asker often goes unsaid, alone or inside a place: "可以带家属
吗？", "仓库里可以吃东西吗？"): the rules that apply to them, when the knowledge base keeps a source
on it. "水可以导电吗？" asks what a thing can do; "晚上可以喝咖啡吗？" and "感冒时需要吃抗生素吗？"
what anyone may do at a time or in a state, which the world answers."""

_DOCUMENTS = re.compile(
    r"\b(?:from|in|by|according to|based on)\s+(?:(?:an?|the|this|that|both|these|two)\s+)?"
    r"(?:[\w'’.-]+\s+){0,3}?(?:articles?|reports?)\b(?!\s*\d)"
    r"|\b(?:articles?|reports?)\s+(?:from|by|published)\b"
    r"|这篇|该文|文中|文章中|报道中|据.{0,12}报道",
    re.IGNORECASE,
)
"""Words that ask what documents say ("an article from The Verge", "according to the report",
"这篇报道"): only the documents can answer that."""

COMMON_FROM = 4.0
"""A name this common on wordfreq's Zipf scale (once in 100,000 words of general text) is one the
world talks about; a rarer one the documents hold is taken as the knowledge base's own."""

_TITLE_WORD_CHARS = 4
"""A title word shorter than this (letters) says too little to tie a question to a page."""


@dataclass(frozen=True)
class Searched:
    """A document a search found, as ownership reads it."""

    title: str
    """Its title, and the headings of the section it was cut from."""
    text: str
    kept: bool
    """Whether the relevance judge kept it as a likely source."""


@dataclass(frozen=True)
class Owned:
    """Why a question is about the knowledge base's own things (all empty when it is not)."""

    speech: tuple[str, ...] = ()
    """The words that speak of the asker's organisation."""
    documents: tuple[str, ...] = ()
    """The words that ask what documents say."""
    applies: str = ""
    """The words by which the question asks what applies to the asker, a source being kept."""
    titled: tuple[str, ...] = ()
    """The question's names and words that stand in the title of a document found."""
    held: tuple[str, ...] = ()
    """The question's names that documents found hold and general text seldom uses."""

    def __bool__(self) -> bool:
        return bool(self.speech or self.documents or self.applies or self.titled or self.held)

    def why(self) -> str:
        """Say why the question is the knowledge base's to answer ('' when it is not)."""
        parts = []
        if self.speech:
            parts.append("speaks of the asker's organisation (" + ", ".join(self.speech) + ")")
        if self.documents:
            parts.append("asks what documents say (" + ", ".join(self.documents) + ")")
        if self.applies:
            parts.append(f"asks what the knowledge base's rules allow the asker ({self.applies})")
        if self.titled:
            listed = ", ".join(repr(n) for n in self.titled)
            parts.append(f"names what the knowledge base documents: {listed}")
        if self.held:
            listed = ", ".join(repr(n) for n in self.held)
            parts.append(f"names what the documents hold and general text seldom does: {listed}")
        return "; ".join(parts)


def speaks_of_own(question: str) -> tuple[str, ...]:
    """Return the words by which a question speaks of the asker's organisation, in order."""
    seen: dict[str, None] = {}
    for found in _SPEECH.finditer(question):
        seen.setdefault(found.group(0).lower(), None)
    return tuple(seen)


def _title_keys(title: str) -> str:
    """Return a title as the text its names are looked up in, padded for whole-word matches."""
    spaced = re.sub(r"[_:;,.!?()\[\]\"“”‘’|]", " ", title.replace("-", " "))
    return f" {' '.join(key(spaced).split())} "


def _in_title(normal: str, title: str) -> bool:
    """Whether a title holds a name or word, whole (plurals folded: "return" in "Returns")."""
    if not normal:
        return False
    if CJK.search(normal):
        return normal in title
    if f" {normal} " in title:
        return True
    return " " not in normal and fold(normal) in {fold(w) for w in title.split()}


def _is_title(normal: str, title: str) -> bool:
    """Whether a title, or one of its headings, is a term itself (plurals folded).

    "Warranty" for "warranty", not "IT Security: Passwords, MFA, VPN and Devices" or "Beacon VPN"
    for "vpn"; a Chinese heading holding the term (叉车安全 for 叉车), as Chinese headings run
    their words together.
    """
    if not normal:
        return False
    parts = [p.strip() for p in title.split(" > ")]
    if CJK.search(normal):
        return any(normal in p for p in parts)
    return any(p == normal or fold(p) == fold(normal) for p in parts)


def _named_with_more(name: str, words: Sequence[str], title: str) -> bool:
    """Whether a title holds a common Chinese name as the question names it, or is the name.

    A Chinese title has no spaces to tell the page's subject from a modifier: 中国区售后服务
    holds 中国, but a question on 中国最长的河流 shares only the name with it. The title counts
    when it holds the name joined to the question's word after or before it (苏州配送 in
    苏州配送中心员工规定; not 美国人 for 美国人口), or one of its parts is the name alone. `words`
    are the question's words in order (jieba's).
    """
    if name in title.replace(" > ", " ").split():
        return True
    for at, word in enumerate(words):
        if word != name:
            continue
        after = words[at + 1] if at + 1 < len(words) else ""
        before = words[at - 1] if at > 0 else ""
        if CJK.search(after) and name + after in title:
            return True
        if CJK.search(before) and before + name in title:
            return True
    return False


PAGE_NAME_WORDS = 4
"""A title or heading of at most this many words (or twice as many Chinese characters) names a
page ("Returns", "Working hours", "退货"); a longer one is a headline, whose words say what
happened, not what the knowledge base keeps."""


def _names_a_page(title: str) -> bool:
    """Whether each part of a title and its headings is short enough to name a page."""
    parts = [p.strip() for p in re.split(r"\s+>\s+|\n", title) if p.strip()]
    return all(
        len(p.split()) <= PAGE_NAME_WORDS and len(CJK.findall(p)) <= 2 * PAGE_NAME_WORDS
        for p in parts
    )


def owned_by(question: str, searched: Sequence[Searched], language: str = "en") -> Owned:
    """Return why a question is about the knowledge base's own things, from what its search found.

    A name of the question counts when a document found holds it in its title (a Chinese name
    general text uses often, as the question names it: `_named_with_more`), or, unless the
    question asks its definition, in its text while general text seldom uses it; a content word
    (four letters or more, or a Chinese word) when a kept document holds it in a title that names
    a page (not a headline). When the question asks what a term means, a term (a word, an
    acronym, or the whole term asked) counts only where a title or heading is the term itself
    (`_is_title`); a name keeps its match inside a longer title.
    """
    terms = terms_of(question)
    words = cut_zh(key(question)) if CJK.search(question) else []
    titles = [_title_keys(d.title) for d in searched if d.title]
    kept = [_title_keys(d.title) for d in searched if d.title and d.kept and _names_a_page(d.title)]
    # what a term means: a page on the term itself is the knowledge base's, not one that uses it
    asked_term = defined_term(question)
    term_asked = bool(asked_term)
    titled: dict[str, None] = {}
    for name in sorted(terms.names):
        normal = key(name)
        if term_asked and is_term(name):
            if any(_is_title(normal, t) for t in titles):
                titled.setdefault(name, None)
        elif CJK.search(normal) and zipf(normal, "zh") >= COMMON_FROM:
            if any(_named_with_more(normal, words, t) for t in titles):
                titled.setdefault(name, None)
        elif any(_in_title(normal, t) for t in titles):
            titled.setdefault(name, None)
    if " " in asked_term and any(_is_title(key(asked_term), t) for t in titles):
        titled.setdefault(asked_term, None)  # "vacation carryover", whole
    in_title = _is_title if term_asked else _in_title
    for word in sorted(terms.words):
        long_enough = bool(CJK.search(word)) and len(word) >= 2 or len(word) >= _TITLE_WORD_CHARS
        if long_enough and any(in_title(key(word), t) for t in kept):
            titled.setdefault(word, None)
    held: dict[str, None] = {}
    if not general_form(question):
        texts = " ".join(key(f"{d.title} {d.text}") for d in searched)
        for name in sorted(terms.names | unlisted(terms.words)):
            normal = key(name)
            if normal and name not in titled and _in_text(normal, texts):
                if zipf(normal, language) < COMMON_FROM:
                    held.setdefault(name, None)
    asks_documents = tuple(dict.fromkeys(m.group(0).lower() for m in _DOCUMENTS.finditer(question)))
    applies = _APPLIES.search(question) if any(d.kept for d in searched) else None
    return Owned(
        speech=speaks_of_own(question),
        documents=asks_documents,
        applies=(applies.group("en") or applies.group("zh")).lower() if applies else "",
        titled=tuple(titled),
        held=tuple(held),
    )


def _in_text(normal: str, text: str) -> bool:
    """Whether a text holds a name whole (Chinese by string)."""
    if CJK.search(normal):
        return normal in text
    return re.search(rf"(?<!\w){re.escape(normal)}(?!\w)", text) is not None


@cache
def zipf(name: str, language: str) -> float:
    """Return how common a name is in general text (wordfreq's Zipf scale, 0 when unseen)."""
    from wordfreq import zipf_frequency  # its word lists load on first use

    return float(zipf_frequency(name, language))
