"""The question's rules, no model: its form, its shape, and whose things it asks about.

`small_talk`, `general_form` and `defined_term` read a greeting or a general question's form;
`has_parts`, `split_parts`, `nested_reference`, `names_an_entity`, `asks_yes_no` and
`asks_amount` read its shape; `owned_by` says whether it asks about the knowledge base's own
things or the world's.
"""

from adaptive_rag.core.question.forms import (
    SmallTalk,
    defined_term,
    general_form,
    small_talk,
)
from adaptive_rag.core.question.owned import Owned, Searched, owned_by, speaks_of_own, zipf
from adaptive_rag.core.question.shape import (
    asks_amount,
    asks_property_of,
    asks_yes_no,
    has_parts,
    length,
    names_an_entity,
    nested_reference,
    split_parts,
)

__all__ = [
    "Owned",
    "SmallTalk",
    "Searched",
    "asks_amount",
    "asks_property_of",
    "asks_yes_no",
    "defined_term",
    "general_form",
    "has_parts",
    "length",
    "names_an_entity",
    "nested_reference",
    "owned_by",
    "small_talk",
    "speaks_of_own",
    "split_parts",
    "zipf",
]
