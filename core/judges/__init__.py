"""The fitted judges: logistic models over rule-read features, their weights shipped in weights/.

`relevance_judge` grades a search's sources, `answer_judge` decides whether an answer is
declined, `general_judge` whether general knowledge may answer, and the confidence map is read
with `load_judge`. Each judge's feature names and shipped file name are exported under its own
prefix (RELEVANCE_, ANSWER_, GENERAL_), since each module calls them FEATURES and JUDGE.
"""

from adaptive_rag.core.judges.answerability import (
    CHAT_FEATURES,
    CHAT_FREE_JUDGE,
    answer_features,
    answer_judge,
    decline_below,
)
from adaptive_rag.core.judges.answerability import FEATURES as ANSWER_FEATURES
from adaptive_rag.core.judges.answerability import JUDGE as ANSWER_JUDGE
from adaptive_rag.core.judges.fitted import WEIGHTS_DIR, Judge, Logistic, load_judge
from adaptive_rag.core.judges.general import FEATURES as GENERAL_FEATURES
from adaptive_rag.core.judges.general import (
    SURE_FROM,
    common_definition,
    defines_terms,
    features,
    general_judge,
    rare_names,
    sure,
)
from adaptive_rag.core.judges.relevance import FEATURES as RELEVANCE_FEATURES
from adaptive_rag.core.judges.relevance import JUDGE as RELEVANCE_JUDGE
from adaptive_rag.core.judges.relevance import (
    KEYWORD_JUDGE,
    VECTOR_FEATURES,
    SearchedBy,
    keep_sources,
    look_alikes,
    relevance_judge,
    searched_by,
    source_features,
)

__all__ = [
    "ANSWER_FEATURES",
    "ANSWER_JUDGE",
    "CHAT_FEATURES",
    "CHAT_FREE_JUDGE",
    "GENERAL_FEATURES",
    "KEYWORD_JUDGE",
    "RELEVANCE_FEATURES",
    "RELEVANCE_JUDGE",
    "SURE_FROM",
    "VECTOR_FEATURES",
    "WEIGHTS_DIR",
    "Judge",
    "Logistic",
    "SearchedBy",
    "answer_features",
    "answer_judge",
    "common_definition",
    "decline_below",
    "defines_terms",
    "features",
    "general_judge",
    "keep_sources",
    "load_judge",
    "look_alikes",
    "rare_names",
    "relevance_judge",
    "searched_by",
    "source_features",
    "sure",
]
