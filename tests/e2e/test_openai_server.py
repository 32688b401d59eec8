"""The hosted-model path against a real OpenAI-compatible server: llama.cpp's, on the embedded GGUF.

The agent is pointed at the server as a user would point it (OPENAI_BASE_URL and
ADAPTIVE_RAG_CHAT_MODEL=openai:<name>). Each way the real server differs from the offline fake has a
test here that fails without its workaround: max_tokens only as `extra_body` (it ignores
max_completion_tokens), JSON mode (json_schema is a 500), `--interrupt_requests False` (else a second
request cuts a streamed reply short), and no usage in streams and no cached-token count. Calls
streamed under a cancellable run (it stops a reply only when a streamed connection closes) are
tested in test_openai_server_cancel.py; the shared fixtures are in conftest.py.
"""

from __future__ import annotations

import importlib.util
import os
import threading
import time
from pathlib import Path

import pytest
from adaptive_rag import build_graph
from adaptive_rag.providers import calls, chat
from hosted_model import (
    COMPARE,
    ELSEWHERE,
    MODEL_NODES,
    SIMPLE,
    Calls,
    context,
)
from langchain_core.messages import HumanMessage

pytestmark = pytest.mark.local_model

if not os.environ.get("CI") and not all(
    importlib.util.find_spec(name) for name in ("llama_cpp", "fastapi", "starlette_context")
):
    pytest.skip("llama.cpp's server needs the `local` extra", allow_module_level=True)


def test_every_node_reads_its_reply_from_the_server(hosted: str, hosted_kb: Path) -> None:
    graph, recorded = build_graph(), Calls()
    runs = [  # the simple route; the complex route searched in parallel, then hop by hop (JSON);
        (SIMPLE, context(hosted_kb)),  # and a question the model routes
        (ELSEWHERE, context(hosted_kb, general_questions="decline")),  # else asked directly
        (COMPARE, context(hosted_kb)),
        (COMPARE, context(hosted_kb, complex_shape="sequential")),
    ]
    outs = [graph.invoke({"question": q}, {"callbacks": [recorded]}, context=c) for q, c in runs]
    for out in outs:
        print(out["route"], out["diagnostics"], out["answer"][:160])
        diagnostics = out["diagnostics"]
        assert diagnostics["steps"][-1] == "finalize" and not out["failures"], out["failures"]
        assert not [n for n in diagnostics["notes"] if n.startswith(MODEL_NODES)], diagnostics[
            "notes"
        ]
        assert diagnostics["tokens_in"] > 0 and diagnostics["tokens_out"] > 0
        assert diagnostics["tokens_cached"] == 0  # the server reports no prompt_tokens_details
    asked = {call["node"] for call in recorded.calls.values()}
    assert set(MODEL_NODES) <= asked, asked
    simple, elsewhere, parallel, sequential = outs
    assert simple["route"]["method"] == "fitted" and elsewhere["route"]["method"] == "model"
    assert "14" in simple["answer"] and simple["route"]["category"] == "simple"
    assert parallel["route"]["category"] == "complex"
    assert parallel["diagnostics"]["steps"].count("sub_question") >= 2
    # every hop's JSON reply was read: each hop reports a finding or asks for the next search
    hops = sequential["diagnostics"]["steps"].count("hop")
    assert hops >= 1 and len(recorded.of("hop")) == hops, (hops, recorded.of("hop"))
    # assess's odds come from the server's logprobs: a probability, not the text's bare 1 or 0
    support = simple["diagnostics"]["support"]
    assert support is not None and 0.0 < support < 1.0, support
    assess = recorded.of("assess")[0]
    assert assess["message"].response_metadata["logprobs"]["content"]
    assert calls.token_usage(assess["message"])[1] == 1  # one token, not the call's 1024 cap


def test_a_yes_no_gets_one_token(hosted: str) -> None:
    """assess binds max_tokens=1; the server reads it only from extra_body (the model's cap)."""
    chatty = [HumanMessage("Is Paris the capital of France? Reply yes or no, then explain why.")]
    reply = calls.call_yes_no(chat.load_chat_model("auto"), chatty)
    assert reply.odds and reply.tokens_out == 1 and reply.text.lower() == "yes", reply


def test_every_reply_gets_its_cap(hosted: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server ignores max_completion_tokens: the cap travels as extra_body.max_tokens."""
    monkeypatch.setattr(chat, "MAX_TOKENS", 8)
    story = [HumanMessage("Write a 200-word story about a lighthouse.")]
    capped = calls.call_model(chat.load_chat_model("auto"), story)
    assert capped.tokens_out == 8, capped


def test_json_schema_fails_on_the_server_so_judges_use_json_mode(hosted: str) -> None:
    """What `constrain_json` avoids: the server refuses response_format json_schema."""
    from adaptive_rag.nodes.hop import Step

    model = chat.load_chat_model("auto")
    question = [
        HumanMessage(
            'Reply as JSON {"finding": "...", "missing": "", "answerable": true, "next_query": ""}:'
            " who wrote Hamlet?"
        )
    ]
    strict = model.with_structured_output(Step, method="json_schema")
    with pytest.raises(Exception, match="json_schema|500"):
        strict.invoke(question)
    reply = calls.call_model(model, question, Step)
    assert calls.parse_json(reply.text, Step).finding


def test_two_streams_at_once_both_finish(hosted: str) -> None:
    """A second request must wait its turn, not cut the streamed reply before it short."""
    model = chat.load_chat_model("auto").bind(**calls.at_most(chat.load_chat_model("auto"), 24))
    finished: list[str | None] = []

    def stream(topic: str) -> None:
        last = None
        for chunk in model.stream([HumanMessage(f"Write a long story about {topic}.")]):
            last = chunk.response_metadata.get("finish_reason") or last
        finished.append(last)

    threads = [threading.Thread(target=stream, args=(t,)) for t in ("a lighthouse", "a river")]
    for thread in threads:
        thread.start()
        time.sleep(0.5)
    for thread in threads:
        thread.join(timeout=300)
    assert finished == ["length", "length"], finished  # interrupted streams end without a reason
