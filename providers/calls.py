"""Calling a chat model, and reading its reply.

A call is JSON-constrained or streamed, a one-token yes/no, cancellable and costed; a reply is read
as its text, its first clean line, or the JSON object it holds.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from adaptive_rag.core.cancel import cancellable, raise_if_cancelled
from adaptive_rag.core.text import message_text
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import ensure_config, merge_configs
from langgraph.constants import TAG_NOSTREAM
from pydantic import BaseModel, ValidationError

T = TypeVar("T", bound=BaseModel)


@dataclass
class Reply:
    """A model's text reply and what it cost."""

    text: str
    tokens_in: int = 0
    tokens_out: int = 0
    tokens_cached: int = 0
    """Of tokens_in, those a prefix cache served instead of computing them."""
    message_id: str | None = None
    """The reply's message id: the id its streamed tokens carried."""
    yes: float | None = None
    """For a yes/no question: the probability of yes (log-probabilities, else the text's 1/0)."""
    odds: bool = False
    """Whether `yes` came from log-probabilities: a score thresholds can be measured on."""
    logprob: float | None = None
    """Mean log-probability of the reply's tokens as written (None when the model gave none)."""


def constrain_json(model: BaseChatModel, schema: type[BaseModel] | None) -> Runnable[Any, Any]:
    """Ask the model for JSON: a schema grammar on llama.cpp, JSON mode on OpenAI-compatible."""
    if schema is None:
        return model
    llm_type = getattr(model, "_llm_type", "")
    if llm_type == "llama-cpp-python":
        return model.bind(
            response_format={"type": "json_object", "schema": schema.model_json_schema()}
        )
    if llm_type == "openai-chat":
        return model.bind(response_format={"type": "json_object"})
    return model


class StopWhenCancelled(BaseCallbackHandler):
    """Raise RunCancelled in a model call whose run was cancelled: before it, or between tokens."""

    raise_error = True
    run_inline = True

    def on_chat_model_start(self, *args: Any, **kwargs: Any) -> None:
        """Do not start a call for a run that is gone."""
        raise_if_cancelled()

    def on_llm_new_token(self, *args: Any, **kwargs: Any) -> None:
        """Stop writing within a token of the cancel (the provider's stream is closed)."""
        raise_if_cancelled()


_STOP_WHEN_CANCELLED = StopWhenCancelled()


def call_model(
    model: BaseChatModel,
    messages: list[BaseMessage],
    schema: type[BaseModel] | None = None,
    *,
    stream: bool = False,
    logprobs: bool = False,
) -> Reply:
    """Invoke a chat model (JSON-constrained when a schema is given); return text and usage.

    Only a call with `stream=True` (the answer) streams its tokens in LangGraph's `messages`
    mode; every other call is tagged `nostream`, so a chat UI never shows a grader's JSON.
    `logprobs` asks a model that gives them for its tokens' log-probabilities (Reply.logprob).
    """
    runnable = constrain_json(model, schema)
    if logprobs and getattr(model, "_llm_type", "") in ("llama-cpp-python", "openai-chat"):
        runnable = runnable.bind(logprobs=True, top_logprobs=1)
    message, reply = _invoke(model, runnable, messages, stream)
    return replace(reply, logprob=mean_logprob(message.response_metadata or {}))


def mean_logprob(metadata: dict[str, Any]) -> float | None:
    """Return the mean log-probability of the written tokens, or None when none were given."""
    content = (metadata.get("logprobs") or {}).get("content") or []
    values = [float(t["logprob"]) for t in content if t.get("logprob") is not None]
    return sum(values) / len(values) if values else None


def _invoke(
    model: BaseChatModel, runnable: Runnable[Any, Any], messages: list[BaseMessage], stream: bool
) -> tuple[BaseMessage, Reply]:
    """Invoke a (bound) model under the cancel check; return its message and its Reply.

    A server call of a run that can be cancelled is streamed even when its tokens are not shown
    (`nostream`): a cancel then closes the stream between tokens, and a server that checks for a
    closed connection only between streamed chunks (llama.cpp's) stops writing. A plain request
    would keep it busy until the whole reply was written.
    """
    config: RunnableConfig = {"callbacks": [_STOP_WHEN_CANCELLED]}
    if not stream:
        config["tags"] = [TAG_NOSTREAM]
    if cancellable() and getattr(model, "_llm_type", "") == "openai-chat":
        runnable = runnable.bind(stream=True)
    message = runnable.invoke(messages, merge_configs(ensure_config(), config))
    tokens_in, tokens_out, tokens_cached = token_usage(message)
    return message, Reply(
        text=message_text(message).strip(),
        tokens_in=tokens_in,
        tokens_out=tokens_out,
        tokens_cached=tokens_cached,
        message_id=message.id,
    )


TOP_LOGPROBS = 10
"""Alternatives read at the first token: enough that both yes and no are among them."""
YES_WORDS = {"yes": True, "no": False, "是": True, "否": False, "有": True, "没有": False}
"""First reply tokens read as a yes or a no (the question asks for English; Chinese counts too)."""


def call_yes_no(model: BaseChatModel, messages: list[BaseMessage]) -> Reply:
    """Ask a yes/no question for one token; `yes` is its probability where the model gives odds.

    A model's odds are a score a threshold can be measured on; its bare "yes" is not (a small
    model says yes to nearly everything it is asked about its own sources).
    """
    llm_type = getattr(model, "_llm_type", "")
    odds = llm_type in ("llama-cpp-python", "openai-chat")  # both take OpenAI's logprobs
    bound = (
        model.bind(logprobs=True, top_logprobs=TOP_LOGPROBS, **at_most(model, 1)) if odds else model
    )
    message, reply = _invoke(model, bound, messages, stream=False)
    metadata = message.response_metadata or {}
    measured = yes_probability(metadata, "")  # None unless the log-probabilities held yes or no
    return replace(reply, yes=yes_probability(metadata, reply.text), odds=measured is not None)


def at_most(model: BaseChatModel, tokens: int) -> dict[str, Any]:
    """Return the arguments that cap a reply at `tokens`, where the model's server reads them.

    A model built for an OpenAI-compatible server sends its cap as `extra_body.max_tokens` (beside
    langchain-openai's `max_completion_tokens`, which llama.cpp's server ignores): a bound
    `max_tokens` alone would leave that cap in force.
    """
    capped: dict[str, Any] = {"max_tokens": tokens}
    extra = getattr(model, "extra_body", None)
    if isinstance(extra, dict) and "max_tokens" in extra:
        capped["extra_body"] = {**extra, "max_tokens": tokens}
    return capped


def yes_probability(metadata: dict[str, Any], text: str) -> float | None:
    """Return P(yes) among yes and no at the first token; the text's own word when no odds."""
    content = (metadata.get("logprobs") or {}).get("content") or []
    weight = {True: 0.0, False: 0.0}
    for entry in (content[0].get("top_logprobs") or []) if content else []:
        said = YES_WORDS.get(str(entry.get("token", "")).strip().lower())
        if said is not None:
            weight[said] += math.exp(float(entry["logprob"]))
    if weight[True] + weight[False] > 0:
        return weight[True] / (weight[True] + weight[False])
    first = re.split(r"[\s,.:;!，。：]", text.strip().lower(), maxsplit=1)[0] if text else ""
    said = YES_WORDS.get(first)
    return None if said is None else float(said)


def token_usage(message: BaseMessage) -> tuple[int, int, int]:
    """Return (input, output, cached input) tokens from usage metadata (0 where not reported)."""
    usage = message.usage_metadata if isinstance(message, AIMessage) else None
    if usage:
        cached = (usage.get("input_token_details") or {}).get("cache_read") or 0
        return int(usage["input_tokens"]), int(usage["output_tokens"]), int(cached)
    raw = (message.response_metadata or {}).get("token_usage") or {}
    details = raw.get("prompt_tokens_details") or {}
    return (
        int(raw.get("prompt_tokens") or 0),
        int(raw.get("completion_tokens") or 0),
        int(details.get("cached_tokens") or 0),
    )


class StructuredOutputError(ValueError):
    """A model's reply could not be read as the expected structure."""

    failure_kind = "model_output"
    """How a node reports it (core.failures)."""


def clean_line(text: str, prefixes: tuple[str, ...] = ()) -> str:
    """Return the first non-empty line of a reply without labels, quotes or fences."""
    for raw in text.replace("```", "\n").splitlines():
        line = raw.strip()
        lowered = line.lower()
        for prefix in prefixes:
            if lowered.startswith(prefix):
                line = line[len(prefix) :].lstrip(" :：-")
                break
        line = line.strip().strip("\"'“”「」").strip()
        if line:
            return line
    return ""


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


def parse_json(text: str, schema: type[T]) -> T:
    """Read the first JSON object in a reply (fenced or bare) as a pydantic model."""
    fenced = _FENCE.search(text)
    candidate = fenced.group(1) if fenced else text
    start, end = candidate.find("{"), candidate.rfind("}")
    if start < 0 or end <= start:
        raise StructuredOutputError(f"no JSON object in reply: {text[:200]!r}")
    try:
        return schema.model_validate(json.loads(candidate[start : end + 1]))
    except (json.JSONDecodeError, ValidationError) as exc:
        raise StructuredOutputError(f"reply is not a valid {schema.__name__}: {exc}") from exc
