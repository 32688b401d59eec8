"""Context validation: bad settings fail at once with the field's name."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest
from adaptive_rag import Context
from adaptive_rag.core.access import Reader
from adaptive_rag.schema.run_context import context_of
from langgraph.runtime import Runtime, ServerInfo
from langgraph_sdk.auth.types import StudioUser


def test_defaults_are_valid_and_every_field_is_described() -> None:
    ctx = Context()
    assert ctx.k == 4 and ctx.max_rewrites >= 0
    for f in fields(Context):
        assert f.metadata.get("description"), f"{f.name} has no description for Studio"


HISTORY = re.compile(r"measured|session|\d+(\.\d+)?\s*%|decisions\.md|benchmarks|used to", re.I)


def test_descriptions_say_what_a_setting_does_in_two_lines_without_history() -> None:
    assert len(fields(Context)) <= 25  # the settings a user reads in Studio
    for f in fields(Context):
        description = f.metadata["description"]
        assert len(description) <= 220, f"{f.name}: more than two lines"
        assert not HISTORY.search(description), f"{f.name}: {HISTORY.search(description)}"


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"k": 0}, "k"),
        ({"answer_check": "sometimes"}, "answer_check must be one of mark, decline, off"),
        ({"declines": "always"}, "declines"),
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


def test_on_a_server_the_signed_in_user_replaces_what_the_request_says() -> None:
    claimed = Context(user="bob", groups="fin")
    proxy = {"identity": "alice", "reader": "alice", "groups": ["hr"]}

    class Proxy:  # what LangGraph Server puts in server_info.user: attributes and items
        identity = "alice"

        def items(self):  # type: ignore[no-untyped-def]
            return proxy.items()

    info = ServerInfo(assistant_id="a", graph_id="g", user=Proxy())  # type: ignore[arg-type]
    ctx = context_of(Runtime(context=claimed, server_info=info))
    assert (ctx.user, ctx.groups) == ("alice", "hr")
    anonymous = {"identity": "anonymous", "reader": "", "groups": []}
    info = ServerInfo(assistant_id="a", graph_id="g", user=Proxy())  # type: ignore[arg-type]
    proxy.clear()
    proxy.update(anonymous)
    assert context_of(Runtime(context=claimed, server_info=info)).reader() == Reader()
    bare = ServerInfo(assistant_id="a", graph_id="g", user=StudioUser("studio"))
    assert context_of(Runtime(context=claimed, server_info=bare)).user == "studio"
    # in process, with no server, the context is the host's to set
    assert context_of(Runtime(context=claimed)).user == "bob"


def test_on_aegra_the_signed_in_user_is_read_from_its_user_model() -> None:
    """Aegra passes a pydantic User (the auth handler's fields as extras) in configurable."""
    from langgraph.graph import StateGraph
    from pydantic import BaseModel, ConfigDict

    class User(BaseModel):  # aegra_api.models.auth.User's shape
        model_config = ConfigDict(extra="allow")
        identity: str
        is_authenticated: bool = True

    seen: dict[str, Context] = {}

    def node(state: dict[str, str]) -> dict[str, str]:
        seen["ctx"] = context_of(None)
        return state

    graph = StateGraph(dict).add_node("n", node).set_entry_point("n").compile()
    user = User(identity="alice", reader="alice", groups=["hr"])  # type: ignore[call-arg]
    graph.invoke({"q": "x"}, {"configurable": {"langgraph_auth_user": user, "user": "bob"}})
    assert (seen["ctx"].user, seen["ctx"].groups) == ("alice", "hr")
    anonymous = User(identity="anonymous", reader="", groups=[])  # type: ignore[call-arg]
    graph.invoke({"q": "x"}, {"configurable": {"langgraph_auth_user": anonymous}})
    assert seen["ctx"].reader() == Reader()


@pytest.mark.parametrize(
    "name",
    [
        "self_check",
        "check_below",
        "decline_below",
        "correct_threshold",
        "router",
        "router_weights",
        "multi_query",
        "hyde",
        "answer_sub_questions",
        "max_sub_questions",
        "answer_cache_similarity",
        "answer_cache_ttl",
        "max_question_chars",
        "web_results",
    ],
)
def test_a_removed_setting_is_refused_naming_its_replacement(name: str) -> None:
    from adaptive_rag.schema.checks import context_problem
    from adaptive_rag.schema.context import REMOVED
    from adaptive_rag.schema.run_context import context_of
    from langgraph.runtime import Runtime

    with pytest.raises(ValueError, match=f"'{name}' was removed: {re.escape(REMOVED[name])}"):
        context_of(Runtime(context={name: 0.5}))
    assert f"'{name}' was removed" in context_problem({name: 0.5})  # the HTTP layer's 422
    assert f"'{name}' was removed" in context_problem(None, {name: 0.5})  # or configurable
