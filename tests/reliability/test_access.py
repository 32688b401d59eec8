"""Nobody is answered from documents they may not read: answers, sources, streams, cache, errors.

The echo model repeats every prompt, so a document that reached any model call would show in the
output; each attempt scans everything the run returned or streamed for canaries of documents
the reader may not read (tenants.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from adaptive_rag import Context, Services, build_graph
from adaptive_rag.core.access import Reader
from adaptive_rag.knowledge.retriever import HybridRetriever
from stores import STORES, Schemas, server_uri
from tenants import QUESTIONS, READERS, build_kb, echo_model, leaks, seen

ROUTES = {
    "simple": {},
    "complex": {"complex_shape": "parallel"},
    "sequential": {"complex_shape": "sequential"},
}


class Tenants:
    """The graph over one knowledge base shared by several tenants, with the echo model."""

    def __init__(self, tmp_path: Path, route: str = "simple") -> None:
        self.kb = build_kb(tmp_path / "kb", tmp_path / "corpus")
        model = echo_model()
        model.script["classify"] = "simple" if route == "simple" else "complex"
        self.graph = build_graph(
            services=Services(
                chat_model=model,
                knowledge=self.kb,
                retriever=HybridRetriever(kb=self.kb, k=4),
                no_web=True,
            )
        )

    def context(self, reader: Reader, **extra: Any) -> Context:
        settings = {"answer_cache": False, **extra}
        return Context(user=reader.user, groups=",".join(reader.groups), **settings)


@pytest.fixture(scope="module", params=STORES)
def tenants(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[Callable[[str], Tenants]]:
    """The tenants' knowledge base and graph per route, in each store."""
    made: dict[str, Tenants] = {}
    schemas = Schemas(server_uri()) if request.param == "postgres" else None

    def get(route: str) -> Tenants:
        if route not in made:
            with pytest.MonkeyPatch.context() as patch:
                patch.delenv("KNOWLEDGE_URI", raising=False)
                if schemas is not None:
                    patch.setenv("KNOWLEDGE_URI", schemas.fresh())
                made[route] = Tenants(tmp_path_factory.mktemp(route), route)
        return made[route]

    try:
        yield get
    finally:
        if schemas is not None:
            schemas.close()


@pytest.mark.parametrize("route", list(ROUTES))
def test_no_answer_source_or_stream_event_carries_another_readers_document(
    tenants: Callable[[str], Tenants], route: str, tally: Callable[..., None]
) -> None:
    t = tenants(route)
    attempts = found = 0
    own_seen: dict[str, set[str]] = {name: set() for name in READERS}
    for name, reader in READERS.items():
        ctx = t.context(reader, **ROUTES[route])
        for question in QUESTIONS:
            out = t.graph.invoke({"question": question}, context=ctx)
            events = list(
                t.graph.stream(
                    {"question": question},
                    context=ctx,
                    stream_mode=["values", "updates", "messages", "custom", "debug"],
                )
            )
            for output in (out, events):
                attempts += 1
                found += len(leaks(output, reader))
                assert not leaks(output, reader), (route, name, question)
                own_seen[name] |= seen(output)
    tally(faults=attempts, leaks=found)
    # the echo model does repeat what it read: each reader's own documents show up
    assert "CANARY-ALICE-7Q2" in own_seen["alice"] and "CANARY-FIN-8M1" in own_seen["bob"]
    assert own_seen["anonymous"] <= {"PUBLIC-KETTLE-1"}


def test_a_cached_answer_is_never_given_to_another_reader(
    tenants: Callable[[str], Tenants], tally: Callable[..., None]
) -> None:
    t = tenants("simple")
    attempts = found = 0
    for question in QUESTIONS:
        t.kb.answer_cache().clear()  # each question starts with an empty cache
        kept: dict[str, bool] = {}
        for round_ in ("first", "again"):
            for name, reader in READERS.items():
                ctx = t.context(reader, answer_cache=True)
                out = t.graph.invoke({"question": question}, context=ctx)
                attempts += 1
                found += len(leaks(out, reader))
                assert not leaks(out, reader), (name, question)
                # another reader's answer to the same question is never found; one's own is,
                # when it was kept (a verified answer: the echo in the wrong language is not)
                expected = "hit" if round_ == "again" and kept[name] else "miss"
                assert out["diagnostics"]["answer_cache"] == expected, (round_, name, question)
                kept.setdefault(name, out["verified"])
        assert any(kept.values())
    tally(faults=attempts, leaks=found)


@pytest.mark.parametrize(
    "user,groups",
    [("bob,alice", ""), ("", "fin,,"), (" alice", ""), ("alice\nbob", ""), ("x" * 300, "")],
)
def test_a_malformed_identity_is_refused_and_the_error_carries_no_document(
    tenants: Callable[[str], Tenants], user: str, groups: str, tally: Callable[..., None]
) -> None:
    t = tenants("simple")
    try:
        ctx = Context(user=user, groups=groups)
    except ValueError as exc:
        assert not leaks(str(exc), Reader()), exc
        tally(faults=1)
        return
    # "fin,," is a valid list with empty names dropped: it reads as the group fin only
    out = t.graph.invoke({"question": QUESTIONS[4]}, context=ctx)
    assert not leaks(out, ctx.reader())
    tally(faults=1)
