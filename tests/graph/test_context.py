"""Context validation: bad settings fail at once with the field's name."""

from __future__ import annotations

from dataclasses import fields

import pytest
from adaptive_rag import Context
from adaptive_rag.schema.context import context_of
from langgraph.runtime import Runtime


def test_defaults_are_valid_and_every_field_is_described() -> None:
    ctx = Context()
    assert ctx.k == 4 and ctx.max_rewrites >= 0
    for f in fields(Context):
        assert f.metadata.get("description"), f"{f.name} has no description for Studio"


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"k": 0}, "k"),
        ({"correct_threshold": 1.5}, "correct_threshold"),
        ({"incorrect_threshold": 0.9, "correct_threshold": 0.5}, "incorrect_threshold"),
        ({"max_sub_questions": 1}, "max_sub_questions"),
        ({"max_sub_questions": 5}, "max_sub_questions"),
        ({"max_rewrites": -1}, "max_rewrites"),
        ({"max_hops": 0}, "max_hops"),
        ({"max_hops": 7}, "max_hops"),
        ({"complex_shape": "zigzag"}, "complex_shape"),
        ({"k": "four"}, "k"),
        ({"chat_model": "  "}, "chat_model"),
    ],
)
def test_bad_settings_raise_naming_the_field(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(ValueError, match=field):
        Context(**kwargs)  # type: ignore[arg-type]


def test_context_of_accepts_dicts_foreign_contexts_and_nothing() -> None:
    assert context_of(None) == Context()
    assert context_of(Runtime(context=Context(k=7))).k == 7
    assert context_of(Runtime(context={"k": 5, "unrelated": 1})).k == 5
    assert context_of(Runtime(context=object())) == Context()
