"""The Chroma store's cache of earlier answers: a collection beside the chunks' own."""

from __future__ import annotations

import json
import time
from typing import Any

from adaptive_rag.knowledge.answer_cache import Recalled, answer_key
from langchain_core.embeddings import Embeddings

SUFFIX = ".answers"
"""The answers of collection C live in the Chroma collection C.answers, beside its chunks."""


class ChromaAnswers:
    """Answers keyed by question and settings, valid for one knowledge-base revision and a TTL.

    Each entry is a Chroma record whose id is the key; its vector is the question's embedding,
    which Chroma requires and a lookup by id does not read.
    """

    def __init__(self, client: Any, name: str, embeddings: Embeddings) -> None:
        self._client, self._name, self._embeddings = client, f"{name}{SUFFIX}", embeddings

    def _answers(self) -> Any:
        return self._client.get_or_create_collection(
            self._name, embedding_function=None, configuration={"hnsw": {"space": "cosine"}}
        )

    key = staticmethod(answer_key)

    def find(self, question: str, scope: str, revision: int) -> Recalled | None:
        """Return the stored answer to this question at this revision, unless it expired."""
        key = self.key(question, scope)
        got = self._answers().get(ids=[key], include=["metadatas", "documents"])
        if not got["ids"]:
            return None
        meta = got["metadatas"][0]
        if meta["revision"] != revision or meta["expires"] <= time.time():
            return None
        return Recalled(json.loads(got["documents"][0]), str(meta["question"]))

    def put(
        self, question: str, scope: str, revision: int, output: dict[str, Any], ttl: float
    ) -> None:
        """Keep an answer for `ttl` seconds, or until the knowledge base changes."""
        self._answers().upsert(
            ids=[self.key(question, scope)],
            embeddings=[self._embeddings.embed_query(question)],
            documents=[json.dumps(output, ensure_ascii=False)],
            metadatas=[
                {
                    "scope": scope,
                    "revision": revision,
                    "expires": time.time() + ttl,
                    "question": question,
                }
            ],
        )

    def clear(self) -> None:
        """Forget every answer (the knowledge base changed)."""
        try:
            self._client.delete_collection(self._name)
        except Exception:  # nothing stored yet: nothing to forget
            return
