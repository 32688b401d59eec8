"""Names, numbers and content words of a text, and which of them another text contains.

One extractor for every judge that compares texts by their terms: a retrieval feature (the share
of the question's terms a chunk holds), the grounding check of an answer against its sources,
and an entity graph built at ingest. Both languages: English by rules on capitals and words,
Chinese by jieba's tagger (core.text.terms_zh); numbers are read the same way in both
(core.text.numbers).

Matching is fair across languages: an English word is found by its stem ("warranties" finds
"warranty"), a Chinese word by its characters, a name by its distinctive tokens, a number by
its value and unit ("10%" finds "10 %", "两年" finds "two-year").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from adaptive_rag.core.text.citations import CITATION
from adaptive_rag.core.text.numbers import bare, numbers_in
from adaptive_rag.core.text.terms_zh import CJK, names_and_words, unknown, word_found

STOP = frozenset(
    """a an and are as at be been being but by can could did do does doing done for from had has
    have having he her here hers him his how i if in into is it its itself just may me might more
    most much must my no nor not of off on once only or other our ours out over own per same she
    should so some such than that the their theirs them then there these they this those through
    to too under until up upon us very via was we were what when where whether which while who
    whom whose why will with within without would yes you your yours also about above after again
    against all any because before below between both during each few further however therefore
    thus additionally furthermore moreover unfortunately fortunately note please approximately
    around roughly even still yet ok okay sure instead rather according source sources document
    documents mention mentions mentioned states stated say says said based provided information
    answer question context text passage given shown listed described available specific
    specifically""".split()
)
"""English function words and answer scaffolding ("according to the sources"): never content."""

_LATIN = "A-Za-z0-9\u00c0-\u024f"
_TOKEN = re.compile(rf"[{_LATIN}](?:[{_LATIN}'’&\-]*[{_LATIN}])?")
_QUOTE = re.compile(
    r"\"([^\"\n]{2,200})\"|“([^”\n]{2,200})”|「([^」\n]{1,200})」|『([^』\n]{1,200})』"
)
_OPENERS = " \t*_#>\"'“‘(「『-•"
_BOUNDARY = ".!?:;\n。！？]"
_CONNECTORS = frozenset({"of", "de", "van", "von", "der", "da", "du", "la", "le"})
_SPACE = re.compile(r"\s+")
_LIST_MARKER = re.compile(r"^[ \t]*\d{1,2}[.)](?=[ \t])", re.MULTILINE)


@dataclass(frozen=True)
class Terms:
    """What a text says that another text can be checked for.

    names: proper names as written ("Kestrel K2", "Quillon Labs", "苏州", "红楼梦");
    numbers: normal forms from core.text.numbers ("10 %", "2 year", "1200 usd");
    words: content words, English lower-cased with plurals folded, Chinese as jieba cuts them;
    quotes: spans quoted in the text, which a source must hold verbatim.
    """

    names: frozenset[str] = frozenset()
    numbers: frozenset[str] = frozenset()
    words: frozenset[str] = frozenset()
    quotes: frozenset[str] = frozenset()

    def __len__(self) -> int:
        return len(self.names) + len(self.numbers) + len(self.words) + len(self.quotes)

    def __or__(self, other: Terms) -> Terms:
        return Terms(
            self.names | other.names,
            self.numbers | other.numbers,
            self.words | other.words,
            self.quotes | other.quotes,
        )

    def __sub__(self, other: Terms) -> Terms:
        return Terms(
            self.names - other.names,
            self.numbers - other.numbers,
            self.words - other.words,
            self.quotes - other.quotes,
        )

    def facts(self) -> frozenset[str]:
        """Return the names, numbers and quotes: what must be found, not just mostly."""
        return self.names | self.numbers | self.quotes

    def describe(self) -> str:
        """Return the terms as one readable line, facts first ("15 %, Kestrel K3, refund")."""
        ordered = [*sorted(self.quotes), *sorted(self.names), *sorted(self.numbers)]
        return ", ".join([*ordered, *sorted(self.words)])


def fold(word: str) -> str:
    """Fold an English plural to its singular: warranties -> warranty, returns -> return."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "xes", "ches", "shes", "zes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Return the light stem words are matched by: returned, returning, returns -> return."""
    word = fold(word.lower())
    if len(word) > 5 and word.endswith("ied"):
        word = word[:-3] + "y"
    elif len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and word.endswith("ed"):
        word = word[:-2]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
        word = word[:-1]
    return word[:-1] if len(word) > 3 and word.endswith("e") else word


def _initial(text: str, start: int) -> bool:
    i = start - 1
    while i >= 0 and text[i] in _OPENERS:
        i -= 1
    return i < 0 or text[i] in _BOUNDARY


def strong(token: str) -> bool:
    """Whether a token is a name wherever it stands: K2, IP67, iPhone, NASA."""
    letters = any(c.isalpha() for c in token)
    return letters and (
        any(c.isdigit() for c in token)
        or any(c.isupper() for c in token[1:])
        or (len(token) > 1 and token.isupper())
    )


def _english_names(text: str, covered: list[bool], bare_at: set[int]) -> tuple[set[str], set[int]]:
    """Return capitalised spans as names, and the start of every token they took.

    A capital at a sentence's start is a name only when the text capitalises the word elsewhere
    too, when a name follows it ("Quillon Labs is"), or in Chinese text (no sentence capitals).
    """
    chinese = len(CJK.findall(text)) > len(_TOKEN.findall(text))
    tokens = [m for m in _TOKEN.finditer(text) if not covered[m.start()] or m.start() in bare_at]
    words = [m.group().removesuffix("'s").removesuffix("’s") for m in tokens]
    digit = [w.isdigit() for w in words]
    capital = [w[:1].isupper() and w.lower() not in STOP for w in words]
    initial = [not chinese and _initial(text, m.start()) for m in tokens]
    inside = {w for w, c, i in zip(words, capital, initial, strict=True) if c and not i}
    name = [
        (c or strong(w)) and (not i or strong(w) or w in inside)
        for w, c, i in zip(words, capital, initial, strict=True)
    ]
    adjacent = [
        k > 0 and text[tokens[k - 1].end() : tokens[k].start()] == " " for k in range(len(tokens))
    ]
    for k in range(len(tokens) - 1):
        if capital[k] and initial[k] and adjacent[k + 1] and (name[k + 1] or capital[k + 1]):
            name[k] = name[k + 1] = True
    names: set[str] = set()
    taken: set[int] = set()
    span: list[int] = []

    def close() -> None:
        if span:
            names.add(text[tokens[span[0]].start() : tokens[span[-1]].end()].removesuffix("'s"))
            taken.update(tokens[j].start() for j in span)
            span.clear()

    for k in range(len(tokens)):
        joins = bool(span) and adjacent[k]
        if name[k] and not digit[k]:
            if not joins:
                close()
            span.append(k)
        elif joins and digit[k]:  # "iPhone 15": a bare number right after a name ends it
            span.append(k)
            close()
        elif joins and words[k] in _CONNECTORS and k + 1 < len(tokens) and name[k + 1]:
            span.append(k)
        else:
            close()
    close()
    return names, taken


def _english_words(text: str, covered: list[bool], taken: set[int]) -> set[str]:
    words: set[str] = set()
    for m in _TOKEN.finditer(text):
        if covered[m.start()] or m.start() in taken:
            continue
        for part in m.group().lower().removesuffix("'s").removesuffix("’s").split("-"):
            if len(part) > 1 and part.isalpha() and part.isascii() and part not in STOP:
                words.add(fold(part))
    return words


@lru_cache(maxsize=4096)
def terms_of(text: str) -> Terms:
    """Return the names, numbers, content words and quoted spans of a text (any language)."""
    text = CITATION.sub(_blank, text)
    text = _LIST_MARKER.sub(_blank, text)
    numbers = numbers_in(text)
    covered = [False] * (len(text) + 1)
    masked = list(text)
    for _, start, end in numbers:
        covered[start:end] = [True] * (end - start)
        masked[start:end] = " " * (end - start)
    bare_at = {start for number, start, _ in numbers if bare(number) == number}
    quotes = set()
    for m in _QUOTE.finditer(text):
        quotes.add(_clean(next(g for g in m.groups() if g)))
        covered[m.start() : m.end()] = [True] * (m.end() - m.start())
    names, taken = _english_names(text, covered, bare_at)
    names |= {q for q in quotes if q[:1].isupper() and len(q.split()) <= 6}
    zh_names, zh_words = names_and_words("".join(masked))
    return Terms(
        names=frozenset(names | zh_names),
        numbers=frozenset(n for n, _, _ in numbers),
        words=frozenset(_english_words(text, covered, taken) | zh_words),
        quotes=frozenset(q for q in quotes if q),
    )


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group())


def _clean(span: str) -> str:
    return _SPACE.sub(" ", span).strip(" .,;:!?。，；：！？")


@dataclass(frozen=True)
class _Haystack:
    """A text made ready for look-ups: flattened, its tokens, stems and numbers."""

    flat: str
    tokens: frozenset[str]
    stems: frozenset[str]
    numbers: frozenset[str]
    values: frozenset[str]


@lru_cache(maxsize=1024)
def _haystack(text: str) -> _Haystack:
    tokens = {
        m.group().lower().removesuffix("'s").removesuffix("’s") for m in _TOKEN.finditer(text)
    }
    parts = {p for t in tokens for p in t.split("-") if p}
    numbers = frozenset(n for n, _, _ in numbers_in(text, articles=True))
    return _Haystack(
        flat=_SPACE.sub(" ", text).lower(),
        tokens=frozenset(tokens | parts),
        stems=frozenset(stem(p) for p in parts if p.isalpha()),
        numbers=numbers,
        values=frozenset(bare(n) for n in numbers),
    )


def key_tokens(name: str) -> list[str]:
    """Return the tokens a Latin name is found by: its capitals, model names and numbers."""
    tokens = [t.removesuffix("'s") for t in _TOKEN.findall(name)]
    return [t for t in tokens if t[:1].isupper() or strong(t) or t.isdigit()] or tokens


def _name_found(name: str, hay: _Haystack) -> bool:
    if CJK.search(name):
        return name.lower() in hay.flat
    return all(k.lower() in hay.tokens for k in key_tokens(name))


def _number_found(number: str, hay: _Haystack) -> bool:
    if number in hay.numbers:
        return True
    value = bare(number)
    return value in hay.numbers if value != number else value in hay.values


def _word_found(word: str, hay: _Haystack) -> bool:
    return word_found(word, hay.flat) if CJK.search(word) else stem(word) in hay.stems


def found_in(terms: Terms, text: str) -> Terms:
    """Return the part of terms that a text contains (see the module docstring for how)."""
    hay = _haystack(text)
    return Terms(
        names=frozenset(n for n in terms.names if _name_found(n, hay)),
        numbers=frozenset(n for n in terms.numbers if _number_found(n, hay)),
        words=frozenset(w for w in terms.words if _word_found(w, hay)),
        quotes=frozenset(q for q in terms.quotes if q.lower() in hay.flat),
    )


_ACRONYM = re.compile(r"[A-Z]{2,6}")


def is_term(name: str) -> bool:
    """Whether a name is a term of the language, not the name of one thing.

    An acronym ("RFID", "GPS") or a Chinese word jieba's dictionary holds (标准大气压) is
    vocabulary any encyclopedia defines; a name in capitals and digits ("Kestrel K2") or a
    Chinese word the dictionary lacks (澜川科技) names a product, a company or a person.
    """
    if CJK.search(name):
        return " " not in name and not unknown(name)
    return _ACRONYM.fullmatch(name) is not None


def unlisted(words: frozenset[str]) -> frozenset[str]:
    """Return the Chinese words jieba's dictionary lacks, read like names.

    Its hidden Markov model finds them, mostly names it has no entry for (陈静, 李伟, 澜川).
    """
    return frozenset(w for w in words if CJK.search(w) and len(w) > 1 and unknown(w))
