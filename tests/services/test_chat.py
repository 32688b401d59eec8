"""Reading model replies, and choosing a model from the environment with no network."""

from __future__ import annotations

import pytest
from adaptive_rag.providers import calls, chat, local_lanes, local_model
from adaptive_rag.providers.calls import StructuredOutputError, clean_line, parse_json
from adaptive_rag.providers.chat import ModelUnavailableError, resolve_model_spec
from pydantic import BaseModel


class Scores(BaseModel):
    scores: list[float]


@pytest.mark.parametrize(
    "reply",
    [
        '{"scores": [1, 2]}',
        'Sure! Here it is:\n```json\n{"scores": [1, 2]}\n```',
        'Scores: {"scores": [1.0, 2.0]} hope that helps',
    ],
)
def test_parse_json_finds_the_object(reply: str) -> None:
    assert parse_json(reply, Scores).scores == [1.0, 2.0]


@pytest.mark.parametrize("reply", ["", "no json here", '{"scores": "many"}', '{"scores": [1,'])
def test_parse_json_rejects_bad_replies_with_one_error_type(reply: str) -> None:
    with pytest.raises(StructuredOutputError):
        parse_json(reply, Scores)


def test_clean_line_strips_labels_quotes_and_fences() -> None:
    assert clean_line('Standalone question: "How big is it?"', ("standalone question",)) == (
        "How big is it?"
    )
    assert clean_line("```\n\n  better query  \n```") == "better query"
    assert clean_line("「保修期多久」") == "保修期多久"
    assert clean_line("   ") == ""


def test_auto_picks_local_without_keys_and_openai_with_one(monkeypatch: pytest.MonkeyPatch) -> None:
    assert resolve_model_spec("auto") == chat.LOCAL_MODEL
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert resolve_model_spec("auto") == chat.DEFAULT_OPENAI_MODEL
    assert resolve_model_spec("openai:gpt-4.1-mini") == "openai:gpt-4.1-mini"
    monkeypatch.setenv("ADAPTIVE_RAG_CHAT_MODEL", "openai:my-model")
    assert resolve_model_spec("auto") == "openai:my-model"


def test_base_url_alone_selects_an_openai_compatible_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    assert resolve_model_spec("auto") == chat.DEFAULT_OPENAI_MODEL
    model = chat._build_chat_model("openai:qwen2.5")
    assert str(model.openai_api_base) == "http://127.0.0.1:9/v1"  # type: ignore[attr-defined]


def test_openai_without_key_is_a_clear_error() -> None:
    with pytest.raises(ModelUnavailableError, match="OPENAI_API_KEY"):
        chat._build_chat_model("openai:gpt-4o-mini")


def test_bad_spec_is_a_clear_error() -> None:
    with pytest.raises(ModelUnavailableError, match="provider:model"):
        chat._build_chat_model("gpt-4o-mini")


def test_models_are_built_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setattr(chat, "_MODELS", {})
    assert chat.load_chat_model("openai:gpt-4o-mini") is chat.load_chat_model("openai:gpt-4o-mini")


def test_a_lane_is_its_own_embedded_context_and_one_client_on_a_provider(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loads: list[int] = []
    lanes: list[tuple[object, int]] = []

    def fake_local(max_tokens: int = 512, n_ctx: int = 4096) -> object:
        loads.append(n_ctx)
        return object()

    def fake_lane(model: object, n_ctx: int) -> object:
        lanes.append((model, n_ctx))
        return object()

    monkeypatch.setattr(local_model, "load_local_model", fake_local)
    monkeypatch.setattr(local_lanes, "open_lane", fake_lane)
    answers = chat.load_chat_model(chat.LOCAL_MODEL)
    routes = chat.load_chat_model(chat.LOCAL_MODEL, "classify")
    splits = chat.load_chat_model(chat.LOCAL_MODEL, "decompose")
    assert len({id(answers), id(routes), id(splits)}) == 3  # three contexts
    assert chat.load_chat_model(chat.LOCAL_MODEL, "classify") is routes  # each opened once
    assert loads == [4096]  # over one load of the weights
    assert lanes == [(answers, chat.LANE_CONTEXT), (answers, chat.LANE_CONTEXT)]
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    hosted = chat.load_chat_model("openai:gpt-4o-mini")
    assert chat.load_chat_model("openai:gpt-4o-mini", "classify") is hosted


def test_a_lane_that_cannot_open_shares_the_model_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(model: object, n_ctx: int) -> object:
        raise AttributeError("module 'llama_cpp.llama' has no attribute 'internals'")

    monkeypatch.setattr(local_model, "load_local_model", lambda: "the model")
    monkeypatch.setattr(local_lanes, "open_lane", broken)
    with pytest.warns(UserWarning, match="no llama.cpp lane"):
        assert chat.load_chat_model(chat.LOCAL_MODEL, "classify") == "the model"


def _server_requests(stream_reply: str) -> tuple[list[dict[str, object]], object]:
    """A fake OpenAI-compatible server's handler: it records each request's JSON body."""
    import json

    seen: list[dict[str, object]] = []
    top = [{"token": "yes", "logprob": -0.1}, {"token": "no", "logprob": -2.4}]
    logprobs = {"content": [{**top[0], "top_logprobs": top}]}
    chunk = {"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "served"}

    def reply(path: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        request = json.loads(body)
        seen.append(request)
        if request.get("stream"):
            parts = [
                {
                    **chunk,
                    "choices": [
                        {"index": 0, "delta": {"role": "assistant", "content": stream_reply}}
                    ],
                },
                {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
            ]
            events = "".join(f"data: {json.dumps(part)}\n\n" for part in parts)
            return 200, f"{events}data: [DONE]\n\n".encode()
        choice = {"index": 0, "message": {"role": "assistant", "content": stream_reply}}
        answer = {"choices": [{**choice, "finish_reason": "stop", "logprobs": logprobs}]}
        usage = {"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6}
        return 200, json.dumps(
            {"id": "x", "object": "chat.completion", **answer, "usage": usage}
        ).encode()

    return seen, reply


def test_a_yes_no_caps_a_compatible_server_at_one_token_where_it_reads_the_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """llama.cpp's and Ollama's servers read max_tokens, not langchain-openai's max_completion_tokens."""
    from langchain_core.messages import HumanMessage
    from servers import http_server

    seen, reply = _server_requests("yes")
    with http_server(reply) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", f"{url}/v1")
        model = chat._build_chat_model("openai:served")
        answer = calls.call_yes_no(model, [HumanMessage("Is it? Reply yes or no.")])
        calls.call_model(model, [HumanMessage("Write at length.")])
    assert answer.odds and 0.0 < (answer.yes or 0.0) < 1.0
    one, whole = seen
    assert one["max_tokens"] == 1 and one["max_completion_tokens"] == 1 and one["logprobs"]
    assert whole["max_tokens"] == chat.MAX_TOKENS  # every call's cap, in the same field
    monkeypatch.delenv("OPENAI_BASE_URL")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert calls.at_most(chat._build_chat_model("openai:gpt-4o-mini"), 1) == {"max_tokens": 1}


def test_a_call_of_a_cancellable_run_streams_its_request(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server stops a reply only when a streamed connection closes: judgments stream too."""
    import threading

    from adaptive_rag.core.cancel import watched
    from langchain_core.messages import HumanMessage
    from servers import http_server

    seen, reply = _server_requests('{"scores": [1]}')
    with http_server(reply) as url:
        monkeypatch.setenv("OPENAI_BASE_URL", f"{url}/v1")
        model = chat._build_chat_model("openai:served")
        plain = calls.call_model(model, [HumanMessage("Grade.")], Scores)
        streamed = watched(threading.Event(), calls.call_model)(
            model, [HumanMessage("Grade.")], Scores
        )
    assert plain.text == streamed.text == '{"scores": [1]}'
    assert not seen[0]["stream"] and plain.tokens_in == 5  # a sync run: usage as reported
    assert seen[1]["stream"] is True and seen[1]["stream_options"] == {"include_usage": True}
    assert seen[1]["response_format"] == {"type": "json_object"}
