"""The CLI's --set FIELD=VALUE pairs become typed Context fields, or a clear error."""

from __future__ import annotations

import pytest
from adaptive_rag import Context
from adaptive_rag.cli.settings import settings_from_pairs


def test_pairs_take_the_type_of_the_field() -> None:
    settings = settings_from_pairs(["k=6", "clarify=off", "collection=docs"])
    assert settings == {"k": 6, "clarify": False, "collection": "docs"}
    assert Context(**settings).k == 6


@pytest.mark.parametrize(
    ("pair", "message"),
    [
        ("k", "expected FIELD=VALUE"),
        ("nope=1", "FIELD one of"),
        ("k=six", "k: 'six' is not a valid value"),
        ("clarify=maybe", "expected true or false"),
        ("self_check=false", "'self_check' was removed: use answer_check"),
    ],
)
def test_bad_pairs_name_the_problem(pair: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        settings_from_pairs([pair])
