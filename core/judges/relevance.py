"""Relevance of retrieved sources: CRAG's retrieval evaluator as a fitted model over signals.

Every signal is one the agent already has when search returns: each channel's rank and score
(knowledge.retriever keeps them on the chunk; the entity graph's too, with how many names linked
the chunk), whether keyword and vector search agree, the fused rank, how
much of the question's names, numbers and content words the source holds (core.text.terms), and its
length. A logistic model fitted on labelled retrievals (`adaptive-rag eval fit-judges`) turns
them into the probability that a source is one the answer needs; no model call is made.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from adaptive_rag.core.judges.fitted import Logistic, load_judge
from adaptive_rag.core.text import entities_of, found_in, language_of, specific, terms_of

VECTOR_FEATURES = ("vector_score", "vector_gap", "vector_reciprocal_rank")
"""Features read from the embedding model's scores: meaningless under another embedding."""
FEATURES = (
    *VECTOR_FEATURES,
    "keyword_share",
    "keyword_log_score",
    "keyword_reciprocal_rank",
    "agreement",
    "fused_reciprocal_rank",
    "graph_reciprocal_rank",
    "graph_links",
    "word_share",
    "word_gap",
    "word_unique_share",
    "number_share",
    "name_share",
    "names_found",
    "log_length",
    "chinese",
    "question_log_words",
)
"""Every feature the relevance judge may read, in a fixed order."""
JUDGE = "relevance"
KEYWORD_JUDGE = "relevance_keyword"
"""The judge fitted without the vector features, for a knowledge base of another embedding."""
BRIDGE_FLOOR = 0.05
"""The least probability at which a doubted source is kept as a bridge (`bridge`)."""


def _share(part: int, whole: int) -> float:
    """Return part / whole, or 1.0 when there is nothing to find (nothing is missing)."""
    return part / whole if whole else 1.0


def _reciprocal(rank: Any) -> float:
    """Return 1 / rank for a 1-based rank, 0 for an unranked (0 or missing) one."""
    return 1.0 / float(rank) if rank else 0.0


def source_features(
    question: str, sources: Sequence[tuple[str, Mapping[str, Any]]]
) -> list[dict[str, float]]:
    """Describe each retrieved source (text, metadata), in search order, for the judge."""
    asked = terms_of(question)
    found = [found_in(asked, text) for text, _ in sources]
    metas = [meta for _, meta in sources]
    best_vector = max((float(m.get("vector_score") or 0.0) for m in metas), default=0.0)
    best_keyword = max((float(m.get("keyword_score") or 0.0) for m in metas), default=0.0)
    shares = [_share(len(f.words), len(asked.words)) for f in found]
    best_share = max(shares, default=0.0)
    chinese = float(language_of(question) == "zh")
    rows = []
    for i, ((text, meta), hit, share) in enumerate(zip(sources, found, shares, strict=True)):
        elsewhere = set().union(*(f.words for j, f in enumerate(found) if j != i))
        vector = float(meta.get("vector_score") or 0.0)
        keyword = float(meta.get("keyword_score") or 0.0)
        rows.append(
            {
                "vector_score": vector,
                "vector_gap": best_vector - vector,
                "vector_reciprocal_rank": _reciprocal(meta.get("vector_rank")),
                "keyword_share": keyword / best_keyword if best_keyword else 0.0,
                "keyword_log_score": math.log1p(max(keyword, 0.0)),
                "keyword_reciprocal_rank": _reciprocal(meta.get("keyword_rank")),
                "agreement": float(bool(meta.get("agreement"))),
                "fused_reciprocal_rank": _reciprocal(meta.get("rank") or i + 1),
                "graph_reciprocal_rank": _reciprocal(meta.get("graph_rank")),
                "graph_links": math.log1p(len(meta.get("graph_entities") or ())),
                "word_share": share,
                "word_gap": best_share - share,
                "word_unique_share": _share(len(hit.words - elsewhere), len(asked.words)),
                "number_share": _share(len(hit.numbers), len(asked.numbers)),
                "name_share": _share(len(hit.names), len(asked.names)),
                "names_found": float(len(hit.names)),
                "log_length": math.log1p(len(text)),
                "chinese": chinese,
                "question_log_words": math.log1p(len(asked.words)),
            }
        )
    return rows


SearchedBy = tuple[bool, bool]
"""Whether the sources carry (vector, keyword) search signals."""


def searched_by(metas: Sequence[Mapping[str, Any]]) -> SearchedBy:
    """Return which channels' signals a search's results carry (a rank 0 is a miss)."""
    return (
        any(m.get("vector_rank") for m in metas),
        any(m.get("keyword_rank") is not None for m in metas),
    )


def relevance_judge(embedding_model: str, signals: SearchedBy) -> tuple[Logistic | None, str]:
    """Return the judge for sources of this embedding model, and why it is not the full one.

    Sources found by another embedding model's vectors (or by no vector search at all) are
    judged by the judge fitted without the vector features; sources with no search signals at
    all (a retriever of the host's own) are not judged. '' means the full judge applies.
    """
    vector, keyword = signals
    if not keyword:
        return None, "the sources carry no search signals (a retriever of its own); kept unjudged"
    full = load_judge(JUDGE)
    if full is None:
        return None, "no fitted relevance judge is shipped"
    why = full.applies_to(embedding_model=embedding_model)
    if not why and vector:
        return full, ""
    keyword_only = load_judge(KEYWORD_JUDGE)
    why = why or "the sources carry no vector search scores"
    return keyword_only, f"{why}; judged without vector scores" if keyword_only else why


@lru_cache(maxsize=4096)
def names_in(text: str) -> frozenset[str]:
    """Return a text's entity keys as a set, read once: grading asks for them several times."""
    return frozenset(entities_of(text))


def bridge(
    question: str, texts: Sequence[str], scores: Sequence[float], keep: float, trusted: float
) -> tuple[int, int, str] | None:
    """Return (doubted, trusted, name): the one doubted source to keep as a multi-hop bridge.

    A bridge question's second source seldom holds the question's words ("where was the
    inventor of X born?": the birthplace's source names the inventor, not X), so the judge
    doubts it; what ties it to the answer is a name that a source the judge trusts holds and
    the question does not. Among the sources below `keep` but from BRIDGE_FLOOR up that share
    such a name with one from `trusted` up, the likeliest is returned with that source's
    position and the longest name they share; None when there is none.
    """
    sure = [i for i, p in enumerate(scores) if p >= trusted]
    doubted = sorted(
        (i for i, p in enumerate(scores) if BRIDGE_FLOOR <= p < keep), key=lambda i: -scores[i]
    )
    if not sure or not doubted:  # names are read only when a bridge is possible
        return None
    asked = names_in(question)
    names = {i: names_in(texts[i]) - asked for i in sure}
    for i in doubted:  # the likeliest first; ties keep search order
        held = names_in(texts[i])
        for j in sure:
            if shared := held & names[j]:
                return i, j, max(sorted(shared), key=len)
    return None


def anchored(
    question: str, texts: Sequence[str], scores: Sequence[float], keep: float
) -> tuple[int, int, str] | None:
    """Return (bridge, anchor, name): a source tied to the question's own name by a specific name.

    A bridge question names a thing ("the inventor of the Halden valve"): the source that names
    it (the anchor) names the person behind it, and the source with the asked fact names only
    that person, so it shares no word with the question and the judge rates it near zero, while
    a look-alike about someone else holds the question's words and is trusted. When `bridge`
    finds nothing, a doubted source (below `keep`, at any probability) that holds none of the
    question's names but shares a specific name (core.text.entities.specific) with one that does is
    the bridge, and that one its anchor: the longest shared name wins, then search order. None
    when the question names nothing or no such pair is found.
    """
    asked = names_in(question)
    if not asked:
        return None
    names = [names_in(text) for text in texts]
    anchors = [j for j, held in enumerate(names) if held & asked]
    best: tuple[int, int, int, str] | None = None
    for i, held in enumerate(names):
        if scores[i] >= keep or held & asked:
            continue
        for j in anchors:
            shared = sorted(n for n in held & names[j] if specific(n))
            name = max(shared, key=len, default="")
            if name and (best is None or len(name) > best[0]):
                best = (len(name), i, j, name)
    return best[1:] if best else None


def off_chain(question: str, texts: Sequence[str], bridge: int, anchor: int) -> list[int]:
    """Return the sources that an anchored chain leaves aside: they hold none of its names.

    Once a chain from the question's own name is found (`anchored`), a source that names someone
    but holds none of the question's names and none of the bridge's or the anchor's is a
    look-alike: it answers a question like this one about someone else ("another inventor, born
    in Vessmark"), and a small model reads its words as the answer. Only the chosen anchor's
    names count, not those of other sources naming the question's thing.
    """
    asked = names_in(question)
    names = [names_in(text) for text in texts]
    chain = asked | names[bridge] | names[anchor]
    return [
        i
        for i, held in enumerate(names)
        if i not in (bridge, anchor) and held and not held & chain  # a source naming no one stays
    ]


def look_alikes(question: str, texts: Sequence[str]) -> list[int]:
    """Return the look-alikes among unjudged sources (a hop's): those an anchored chain leaves.

    Every source counts as doubted, so any pair of a source naming the question's thing and one
    sharing a specific name with it is a chain; with none, nothing is left out.
    """
    link = anchored(question, texts, [0.0] * len(texts), keep=1.0)
    return off_chain(question, texts, link[0], link[1]) if link else []


@dataclass(frozen=True)
class Kept:
    """The sources grade_documents reads, by search position in reading order, and why."""

    order: list[int]
    why: str
    """What was kept below the threshold ("" when nothing was)."""
    aside: list[int]
    """Sources above the threshold left out as look-alikes of an anchored chain."""


def keep_sources(
    question: str, texts: Sequence[str], scores: Sequence[float], keep: float, trusted: float
) -> Kept:
    """Keep the sources from `keep` up, a bridge beside them, and an anchored chain first.

    A bridge from a trusted source (`bridge`) is kept in search order. Without one, a chain from
    the question's own name (`anchored`) keeps its anchor and bridge, reads them first, and
    leaves out the look-alikes it shows (`off_chain`).
    """
    keeps = [s >= keep for s in scores]
    first: list[int] = []
    aside: list[int] = []
    why = ""
    if link := bridge(question, texts, scores, keep, trusted):
        doubted, linked, name = link
        keeps[doubted] = True
        why = f"search result {doubted + 1} as a bridge: it shares '{name}'"
        why += f" with search result {linked + 1}"
    elif link := anchored(question, texts, scores, keep):
        doubted, linked, name = link
        keeps[doubted] = keeps[linked] = True
        first = [linked, doubted]
        aside = [i for i in off_chain(question, texts, doubted, linked) if keeps[i]]
        for i in aside:
            keeps[i] = False
        why = (
            f"search result {doubted + 1} as a bridge: it shares '{name}' with search result"
            f" {linked + 1}, which holds a name the question asks about (both read first)"
        )
    order = [*first, *(i for i in range(len(texts)) if i not in first)]
    return Kept(order=[i for i in order if keeps[i]], why=why, aside=aside)
