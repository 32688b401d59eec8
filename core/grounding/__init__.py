"""Whether an answer's sources hold what it says, by rules, and the fixes its text gets.

`check` reads each sentence against the sources it cites (claims, sentences, pointing
sentences) and repairs the citations; `focus_of` whether a yes or a no's sources hold what the
question asks; `unnamed_subject` whether an answer cites sources that lack the one name asked
about while another source holds it; `says_sources_lack` whether an answer only says its
sources do not hold it, `admits_lacking` whether a yes or no takes itself back so;
`stated_no` and `stated_yes` whether a no's or a yes's cited source states it in one sentence;
`unmeasured` whether an answer to how much or how many states no amount; `without_stray_yes_no`
and `consistent_yes_no` fix an answer's opening yes or no.
"""

from adaptive_rag.core.grounding.amount import UNMEASURED, unmeasured
from adaptive_rag.core.grounding.answer_check import (
    Grounding,
    SentenceCheck,
    check,
    supported_only,
    without_feedback,
)
from adaptive_rag.core.grounding.focus import Focus, focus_of, unnamed_subject
from adaptive_rag.core.grounding.sentences import split
from adaptive_rag.core.grounding.stated import stated_no, stated_yes
from adaptive_rag.core.grounding.unsaid import admits_lacking, says_sources_lack
from adaptive_rag.core.grounding.yes_no import consistent_yes_no, without_stray_yes_no

__all__ = [
    "UNMEASURED",
    "Focus",
    "Grounding",
    "SentenceCheck",
    "admits_lacking",
    "check",
    "consistent_yes_no",
    "focus_of",
    "says_sources_lack",
    "split",
    "stated_no",
    "stated_yes",
    "supported_only",
    "unmeasured",
    "unnamed_subject",
    "without_feedback",
    "without_stray_yes_no",
]
