"""Answerability: whether the sources answer the question, judged after the answer is written.

The decision to decline combines what the turn already knows, by a logistic model fitted on
labelled runs (`adaptive-rag eval fit-judges --runs ...`): how relevant the best sources were
(core.judges.relevance), the model's odds that they state the answer (assess), the answer's own
evidence (the grounding check's share of supported sentences, how many of the answer's names
and numbers and of the question's terms the sources hold) and how sure the writer was of its
tokens. No model call is made here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from adaptive_rag.core.grounding import Grounding
from adaptive_rag.core.judges.fitted import Judge, Logistic, load_judge
from adaptive_rag.core.text import Terms, found_in, terms_of

CHAT_FEATURES = ("support", "assessed", "answer_logprob", "logprob_known")
"""Features read from the chat model's own probabilities: meaningless under another model."""
FEATURES = (
    "relevance_best",
    "relevance_mean",
    "graded",
    *CHAT_FEATURES,
    "grounding_score",
    "grounded",
    "unchecked_share",
    "answer_facts_found",
    "answer_facts",
    "question_found_share",
    "question_facts_found",
    "cites",
    "answer_log_chars",
    "complex",
    "chinese",
)
"""Every feature the answerability judge may read, in a fixed order."""
JUDGE = "answerable"
CHAT_FREE_JUDGE = "answerable_chat_free"
"""The judge fitted without the chat model's probabilities, for another chat model."""


def _share(found: Terms, wanted: Terms) -> float:
    """Return the share of wanted terms found (1.0 when nothing is wanted)."""
    return len(found) / len(wanted) if len(wanted) else 1.0


def answer_features(
    question: str,
    answer: str,
    sources: Sequence[str],
    grounding: Grounding,
    relevance: Sequence[float],
    support: float | None,
    answer_logprob: float | None,
    *,
    complex_route: bool = False,
    chinese: bool = False,
) -> dict[str, float]:
    """Describe a written answer and what it was written from, for the answerability judge."""
    every = "\n".join(sources)
    cited = sorted({n for s in grounding.sentences for n in s.cites if 1 <= n <= len(sources)})
    cited_text = "\n".join(sources[n - 1] for n in cited) or every
    said = terms_of(answer)
    facts = Terms(names=said.names, numbers=said.numbers, quotes=said.quotes)
    asked = terms_of(question)
    asked_facts = Terms(names=asked.names, numbers=asked.numbers)
    content = [s for s in grounding.sentences if s.status != "no_content"]
    unchecked = sum(s.status == "unchecked" for s in content)
    return {
        "relevance_best": max(relevance, default=0.0),
        "relevance_mean": sum(relevance) / len(relevance) if relevance else 0.0,
        "graded": float(bool(relevance)),
        "support": support if support is not None else 0.5,
        "assessed": float(support is not None),
        "answer_logprob": answer_logprob if answer_logprob is not None else 0.0,
        "logprob_known": float(answer_logprob is not None),
        "grounding_score": grounding.score,
        "grounded": float(grounding.grounded),
        "unchecked_share": unchecked / len(content) if content else 0.0,
        "answer_facts_found": _share(found_in(facts, every), facts),
        "answer_facts": float(len(facts)),
        "question_found_share": _share(found_in(asked, cited_text), asked),
        "question_facts_found": _share(found_in(asked_facts, every), asked_facts),
        "cites": float(bool(cited)),
        "answer_log_chars": math.log1p(len(answer)),
        "complex": float(complex_route),
        "chinese": float(chinese),
    }


def decline_below(judge: Judge) -> float:
    """Return the probability below which a judge declines (0.5 when its weights give none)."""
    return judge.thresholds.get("decline", 0.5)


def answer_judge(chat_model: str) -> tuple[Logistic | None, str]:
    """Return the answerability judge for answers by this chat model, and why not the full one."""
    full = load_judge(JUDGE)
    if full is None:
        return None, "no fitted answerability judge is shipped"
    why = full.applies_to(chat_model=chat_model)
    if not why:
        return full, ""
    chat_free = load_judge(CHAT_FREE_JUDGE)
    return chat_free, f"{why}; judged without its probabilities" if chat_free else why
