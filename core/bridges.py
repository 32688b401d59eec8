"""The bridge of a multi-step search: a name its sources hold that the question does not, no model.

A nested question ("Where was the inventor of the Halden valve born?") is answered in two steps
joined by a name: the first search finds the passage about the thing asked of, which names the
person behind it ("patented by Oskar Brevik"); the second must find what is said of that person,
in words the question does not use. The names a hop's sources hold that the question does not are
the candidates for that bridge (EfficientRAG follows them, a model choosing among them); the one
the hop's finding or next query names is taken first, else the candidates of the best-ranked
source about the question's own names, the fullest name first (a person named in full rather
than by surname, 贺志远 rather than 志远).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from adaptive_rag.core.text import CJK, entities_of, key

MOST = 3
"""Bridges one hop passes on: a bound on the next search's seeds and its query's length."""


def _find(name: str, text: str) -> str | None:
    """Return an entity key's first occurrence in a text, as written there (None: absent)."""
    if CJK.search(name):
        return name if name in text else None
    pattern = r"\s+".join(re.escape(part) for part in name.split())
    found = re.search(rf"(?<!\w){pattern}(?!\w)", text, re.IGNORECASE)
    return found.group(0) if found else None


def written(name: str, text: str) -> str:
    """Return an entity key as the text writes it ('oskar brevik' -> 'Oskar Brevik')."""
    return _find(name, text) or name


def _asked(names: Collection[str], question: str) -> set[str]:
    """Return the names the question holds (as an entity, or within its text: 石堰 of 青石堰)."""
    asked = set(entities_of(question))
    text = key(question)
    within = [text, *asked]
    return asked | {n for n in names if any(_find(n, t) is not None for t in within)}


def _fullest(names: set[str]) -> list[str]:
    """Return names without those another holds (a surname beside the full name), longest first."""
    kept = [n for n in names if not any(n != other and n in other for other in names)]
    return sorted(kept, key=lambda n: (-len(n), n))


def candidates(sources: Sequence[str], question: str, used: Collection[str] = ()) -> list[str]:
    """Return the entity keys of ranked sources that the question does not name, best first.

    Sources that name what the question names come first (in their order), then the others;
    within a source the fullest names come first. Keys in `used` (earlier bridges) are left out.
    """
    held = [set(entities_of(text)) for text in sources]
    asked = _asked(set().union(*held), question)
    about = [names for names in held if names & asked]
    order: list[str] = []
    for names in [*about, *(n for n in held if not n & asked)]:
        order.extend(n for n in _fullest(names - asked) if n not in order and n not in used)
    return order


def _by_surname(name: str, text: str) -> bool:
    """Whether a text names a Latin name of several words by its last, capitalised (Brevik)."""
    words = name.split()
    found = _find(words[-1], text) if len(words) > 1 and not CJK.search(name) else None
    return found is not None and found[:1].isupper()


def named(found: Sequence[str], *said: str) -> list[str]:
    """Return the candidates that texts the model wrote name, in the candidates' order.

    A name is named in full or, as core.text.entities links them, by its last word.
    """
    text = "\n".join(t for t in said if t)
    keys = set(entities_of(text)) if text else set()
    return [n for n in found if n in keys or _find(n, text) is not None or _by_surname(n, text)]
