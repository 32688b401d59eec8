"""The hops follow the names in their sources: the bridge seeds the next search, findings are checked."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from adaptive_rag import Context
from adaptive_rag.core.text import key
from adaptive_rag.evaluation.data import read_jsonl
from adaptive_rag.knowledge.interface import KnowledgeStore
from adaptive_rag.knowledge.opening import open_store
from adaptive_rag.knowledge.retriever import HybridRetriever
from adaptive_rag.nodes.hop import echoes
from adaptive_rag.prompts.hop import FIELDS
from fake_sources import HashEmbeddings, KeywordRetriever, bridge_docs
from stores import STORES, Schemas, server_uri

BRIDGE = Path(__file__).resolve().parents[1] / "data" / "bridge"
QUESTIONS = read_jsonl(BRIDGE / "questions.jsonl")
ZEPHYR = "Where was the inventor of the Zephyr kettle born?"
SEQUENTIAL = {"classify": "complex"}


@pytest.fixture(scope="module", params=STORES)
def bridge_kb(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[KnowledgeStore]:
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("CHROMA_HOST", raising=False)
        patch.delenv("KNOWLEDGE_URI", raising=False)
        folder = tmp_path_factory.mktemp("bridge")
        patch.setenv("ADAPTIVE_RAG_DATA", str(folder / "data"))
        schemas = Schemas(server_uri()) if request.param == "postgres" else None
        if schemas is not None:
            patch.setenv("KNOWLEDGE_URI", schemas.fresh())
        try:
            kb = open_store(
                str(folder / "kb"), "bridge", "test:hash", create=True, embeddings=HashEmbeddings()
            )
            kb.ingest([str(BRIDGE / "corpus.jsonl")], progress=False)
            yield kb
        finally:
            if schemas is not None:
                schemas.close()


def doc_ids(kb: KnowledgeStore, keys: list[str]) -> set[str]:
    """Return the fixture passages (doc_id) a hop's source keys ('kb:<chunk id>') name."""
    return {d.metadata["doc_id"] for d in kb.get([k.removeprefix("kb:") for k in keys])}


def reply(finding: str = "", answerable: bool = False, next_query: str = "") -> str:
    step = {"finding": finding, "missing": "", "answerable": answerable, "next_query": next_query}
    return json.dumps(step, ensure_ascii=False)


def ask(make_harness: Any, retriever: Any, question: str, hop: Any) -> dict[str, Any]:
    h = make_harness(retriever=retriever, hop=hop, **SEQUENTIAL)
    out: dict[str, Any] = h.ask(question, complex_shape="sequential", answer_cache=False)
    assert out["route"]["category"] == "complex"
    return out


USELESS = {
    "nothing": lambda q: reply(),
    "unreadable": lambda q: "I am not sure.",
    "the question again": lambda q: reply(next_query=q["question"]),
    "the reply format echoed": lambda q: reply(FIELDS["finding"], next_query=FIELDS["next_query"]),
    "a finding naming the bridge": lambda q: reply(
        f"{q['bridge_entity']} made {q['question_entity']}", next_query=q["question"]
    ),
}


@pytest.mark.parametrize("model", list(USELESS))
@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q["id"])
def test_the_second_hop_reaches_the_bridge_document_without_a_useful_query(
    make_harness: Any, bridge_kb: KnowledgeStore, question: dict[str, Any], model: str
) -> None:
    """The second passage shares no word with the question: the names of the first lead to it."""
    first, second = question["gold_doc_ids"]
    retriever = HybridRetriever(kb=bridge_kb, k=4)
    out = ask(make_harness, retriever, question["question"], lambda user: USELESS[model](question))
    hops = out["diagnostics"]["hops"]
    assert first in doc_ids(bridge_kb, hops[0]["source_keys"])
    assert len(hops) >= 2 and second in doc_ids(bridge_kb, hops[1]["source_keys"])
    bridge = key(question["bridge_entity"])
    if model == "a finding naming the bridge":  # the model's pick, alone
        assert [bridge.startswith(key(b)) for b in hops[0]["bridges"]] == [True]
    assert hops[1]["query"] == ", ".join(hops[0]["bridges"])


@pytest.mark.parametrize("field", list(FIELDS))
def test_a_field_that_repeats_the_reply_format_is_an_echo(field: str) -> None:
    assert echoes(FIELDS[field])
    assert echoes(FIELDS[field].split("(")[0])  # cut short, as the model sometimes does


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Ada Brook invented the Zephyr kettle",
        "Where was Ada Brook born?",
        "艾达·布鲁克发明了西风水壶",
    ],
)
def test_a_real_finding_or_query_is_not_an_echo(text: str) -> None:
    assert not echoes(text)


def test_the_bridge_seeds_the_walk_even_when_the_model_writes_its_own_query(
    make_harness: Any, bridge_kb: KnowledgeStore
) -> None:
    question = next(q for q in QUESTIONS if q["id"] == "bq-en-04")  # hop 1 misses the teacher

    def hop(user: str) -> str:
        if "This is the first step." in user:  # a query in words the second passage lacks
            return reply("Teodor Lusk wrote the Saltmarsh Suite", next_query="composer's teacher")
        return reply("Teodor Lusk took lessons from Henrike Abel", True)

    out = ask(make_harness, HybridRetriever(kb=bridge_kb, k=4), question["question"], hop)
    hops = out["diagnostics"]["hops"]
    assert "en-lusk" not in doc_ids(bridge_kb, hops[0]["source_keys"])
    assert hops[0]["bridges"] == ["Teodor Lusk"] and hops[1]["query"] == "composer's teacher"
    assert "en-lusk" in doc_ids(bridge_kb, hops[1]["source_keys"]) and hops[1]["done"]
    linked = {link["title"]: link["entities"] for link in hops[1]["links"]}
    assert "teodor lusk" in linked["Teodor Lusk"]  # why the passage was brought in


def test_a_hop_is_not_done_while_the_name_it_found_is_in_no_source(make_harness: Any) -> None:
    def hop(user: str) -> str:
        if "This is the first step." in user:  # "answerable", naming someone no source names
            return reply("Cora Vell invented the Zephyr kettle", True)
        return reply("Ada Brook was born in Leeds", True)

    h = make_harness(retriever=KeywordRetriever(docs=bridge_docs()), hop=hop)
    out = h.ask(ZEPHYR)
    hops = out["diagnostics"]["hops"]
    assert [hop["done"] for hop in hops] == [False, True]
    assert hops[0]["finding"] == "" and hops[0]["bridges"][0] == "Ada Brook"
    assert hops[1]["query"].startswith("Ada Brook") and hops[1]["finding"]
    judged = [j for j in out["diagnostics"]["judgments"] if j["node"] == "hop"]
    assert [j["verdict"] for j in judged] == ["ungrounded", "grounded"]
    assert any("dropped" in note and "Cora Vell" in note for note in out["diagnostics"]["notes"])
    later = [user for role, user in h.model.calls if role in ("hop", "hops_answer")][1:]
    assert later and not any("Cora Vell" in user for user in later)  # not carried on


def test_an_ungrounded_finding_is_dropped_and_the_model_query_still_followed(
    make_harness: Any,
) -> None:
    def hop(user: str) -> str:
        if "This is the first step." in user:  # a year no source states
            return reply("Ada Brook invented the Zephyr kettle in 1975", False, "Ada Brook birth")
        return reply("Ada Brook was born in Leeds", True)

    h = make_harness(retriever=KeywordRetriever(docs=bridge_docs()), hop=hop)
    out = h.ask(ZEPHYR)
    hops = out["diagnostics"]["hops"]
    assert [(hop["query"], hop["finding"]) for hop in hops] == [
        (ZEPHYR, ""),
        ("Ada Brook birth", "Ada Brook was born in Leeds"),
    ]
    assert hops[0]["bridges"] == ["Ada Brook"]  # the name the model's query names
    answer_prompt = next(user for role, user in h.model.calls if role == "hops_answer")
    assert "1975" not in answer_prompt and "Ada Brook was born in Leeds" in answer_prompt


def test_diagnostics_and_the_hop_events_say_which_names_linked_each_source(
    make_harness: Any, bridge_kb: KnowledgeStore
) -> None:
    question = QUESTIONS[0]  # the Halden valve; Oskar Brevik's passage is reached by his name
    step = reply("Oskar Brevik patented the Halden valve")
    h = make_harness(retriever=HybridRetriever(kb=bridge_kb, k=4), hop=step, **SEQUENTIAL)
    events = [
        chunk
        for mode, chunk in h.graph.stream(
            {"question": question["question"]},
            context=Context(complex_shape="sequential", answer_cache=False),
            stream_mode=["custom", "values"],
        )
        if mode == "custom" and chunk.get("step") == "hop"
    ]
    out = h.ask(question["question"], complex_shape="sequential", answer_cache=False)
    links = {link["title"]: link["entities"] for link in out["diagnostics"]["links"]}
    assert "oskar brevik" in links["Oskar Brevik"]
    assert "Marta Solheim" not in links  # the look-alike found by its words is left out
    assert events[0]["links"] == out["diagnostics"]["hops"][0]["links"]
    assert events[0]["bridges"] == ["Oskar Brevik"]


def test_a_hop_leaves_out_the_look_alike_that_shares_no_name_with_the_chain(
    make_harness: Any, bridge_kb: KnowledgeStore
) -> None:
    question = QUESTIONS[0]  # Marta Solheim, another inventor, was born in Vessmark
    h = make_harness(
        retriever=HybridRetriever(kb=bridge_kb, k=4),
        hop=reply("Oskar Brevik patented the Halden valve"),
        **SEQUENTIAL,
    )
    out = h.ask(question["question"], complex_shape="sequential", answer_cache=False)
    first = out["diagnostics"]["hops"][0]
    assert {"en-halden-valve", "en-brevik"} <= doc_ids(bridge_kb, first["source_keys"])
    assert "en-solheim" not in doc_ids(bridge_kb, first["source_keys"])
    left = [j for j in out["diagnostics"]["judgments"] if j["verdict"] == "look-alikes left out"]
    assert left[0]["node"] == "hop 1" and left[0]["method"] == "rule"
    prompts = [user for role, user in h.model.calls if role in ("hop", "hops_answer")]
    assert prompts and not any("Vessmark" in user for user in prompts)
