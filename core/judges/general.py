"""General knowledge: whether the model may answer a question the documents do not answer.

A question the knowledge base does not answer is of one of two kinds. One asks about the
knowledge base's own things (the Quillon Labs CEO's dog, a clause of a contract): only the
documents could answer it, so declining is honest. The other asks what any encyclopedia says
(the capital of France, what a vector database is): the model's own knowledge answers it, and
declining it only because the documents are about other things is a failure.

Two signals tell them apart, with no extra model call: the names the question holds that general
text rarely uses (the documents hold them, or they name one thing nothing holds, which the model
would only guess at; a rare term such as "RFID" is vocabulary the model may know), and how sure
the model is of the answer it writes with no documents (its tokens' mean log-probability).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adaptive_rag.core.judges.fitted import Logistic, load_judge
from adaptive_rag.core.question import defined_term, general_form, length, zipf
from adaptive_rag.core.text import is_term, key, terms_of, unlisted

FEATURES = ("logprob", "definition", "question_words", "answer_words", "chinese")
"""What the general-knowledge judge reads of a question and the model's answer to it."""

RARE_BELOW = 3.0
"""A name rarer than this on wordfreq's Zipf scale (about once per million words of general text)
is one the model cannot be trusted on, unless it is a term (`is_term`): the knowledge base would
hold it, or nothing does."""

SURE_FROM = -0.2
"""The mean token log-probability from which a direct answer is taken as known (the model's
answers to questions it knows sit above it, its guesses below)."""


@dataclass(frozen=True)
class Rare:
    """The question's names that general text rarely uses, and which of them the documents hold."""

    names: tuple[str, ...]
    held: tuple[str, ...]
    """Of `names`, those the documents searched hold: the knowledge base's own things."""

    @property
    def proper(self) -> tuple[str, ...]:
        """Of `names`, those that name one thing ("Kestrel K2", "Quillon Labs"), not a term."""
        return tuple(n for n in self.names if not is_term(n))

    @property
    def keeps_from_general(self) -> bool:
        """Whether the question is not one for general knowledge.

        So when a rare name is held, or names one thing nothing holds (the model would guess); a
        rare term ("RFID") is the model's to know.
        """
        return bool(self.held or self.proper)

    def why(self) -> str:
        """Say why the question is not one for general knowledge ('' when it may be)."""
        if self.held:
            listed = ", ".join(repr(n) for n in self.held)
            return f"names what the knowledge base holds and general text rarely does: {listed}"
        if self.proper:
            listed = ", ".join(repr(n) for n in self.proper)
            return f"names what general text rarely does: {listed}"
        return ""


def rare_names(question: str, texts: Sequence[str], language: str) -> Rare:
    """Return the question's rare names, and those of them the documents searched hold.

    A common name ("France", "法国") is one the model has read about; a rare one ("Quillon
    Labs", "Kestrel K2") is the knowledge base's to answer, or nobody's, unless it is a term
    (`Rare.proper`, `is_term`).
    """
    rare = {
        name: normal
        for name in sorted(terms_of(question).names)
        if (normal := key(name)) and zipf(normal, language) < RARE_BELOW
    }
    if not rare:  # the documents are read only for a name they might hold
        return Rare((), ())
    held_text = " ".join(key(text) for text in texts)
    held = [name for name, normal in rare.items() if _held(normal, held_text)]
    return Rare(tuple(rare), tuple(held))


def _held(normal: str, text: str) -> bool:
    """Whether the text holds the name, or the name less its last words ("Quillon Labs CEO")."""
    words = normal.split()
    return any(" ".join(words[:n]) in text for n in range(len(words), 0, -1))


def common_definition(question: str, language: str) -> bool:
    """Whether a question asks the definition of terms general text uses often.

    "What is a heat pump?", "什么是集装箱？": what any encyclopedia says, which the model knows as
    well as it knows anything; a term rarer than RARE_BELOW ("What is a flurbix?") is not one.
    """
    if not general_form(question):
        return False
    terms = terms_of(question)
    named = [key(n) for n in terms.names] + [w.lower() for w in terms.words]
    return bool(named) and all(zipf(n, language) >= RARE_BELOW for n in named if n)


def defines_terms(question: str, language: str) -> bool:
    """Whether a question asks the meaning of words any encyclopedia defines.

    A definition of common terms (`common_definition`), or of one term however rare, a word of
    the language ("什么是叉车？", "What is a forklift?") or an acronym ("What is RFID?"), as long
    as it names no one thing ("What is Norhaven Care?", "What is Quillon?"). Such a question is
    the model's to answer unless the knowledge base has a page on the term itself
    (core.question.owned).
    """
    if common_definition(question, language):
        return True
    term = key(defined_term(question))
    if not term:
        return False
    names = {n for n in terms_of(question).names if key(n) in term} | unlisted(terms_of(term).words)
    return all(is_term(n) or zipf(key(n), language) >= RARE_BELOW for n in names)


def features(question: str, answer: str, logprob: float | None, chinese: bool) -> dict[str, float]:
    """Describe a direct answer as the general-knowledge judge reads it.

    A missing log-probability is left out: the judge takes its mean.
    """
    values = {
        "definition": float(general_form(question)),
        "question_words": float(min(length(question), 40)),
        "answer_words": float(min(length(answer), 120)),
        "chinese": float(chinese),
    }
    if logprob is not None:
        values["logprob"] = float(logprob)
    return values


def sure(logprob: float | None) -> bool:
    """Whether a direct answer's mean token log-probability says the model knows it.

    A model that gives no log-probabilities (some hosted ones) is taken at its word.
    """
    return logprob is None or logprob >= SURE_FROM


JUDGE = "general"
"""The shipped judge's file name (core/judges/weights/general.json)."""


def general_judge(chat_model: str) -> tuple[Logistic | None, str]:
    """Return the general-knowledge judge for this chat model's answers, and why not (if not).

    Its log-probabilities are the model's own: another model is judged by the rule (`sure`).
    """
    judge = load_judge(JUDGE)
    if judge is None:
        return None, "no fitted general-knowledge judge is shipped"
    why = judge.applies_to(chat_model=chat_model)
    return (None, why) if why else (judge, "")
