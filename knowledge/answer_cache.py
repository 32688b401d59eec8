"""Earlier answers, found again by the same or a near-identical question over the same revision."""

from __future__ import annotations

import hashlib
import json
import re
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from langchain_core.embeddings import Embeddings

SUFFIX = ".answers"
"""The answers of collection C live in the Chroma collection C.answers, beside its chunks."""


@dataclass(frozen=True)
class Recalled:
    """An answer given before: the output fields to return, and how it was found."""

    output: dict[str, Any]
    question: str
    """The question it answered (the same as asked, or a near-identical one)."""
    similarity: float
    """1.0 for the same question; else the cosine similarity of the two questions."""


def normalise(question: str) -> str:
    """Fold case, width and spacing, and drop closing punctuation: the same question, written."""
    text = unicodedata.normalize("NFKC", question).casefold()
    return re.sub(r"\s+", " ", text).strip().rstrip("?.!。？！ ")


class AnswerCache:
    """Answers keyed by question and settings, valid for one knowledge-base revision and a TTL."""

    def __init__(self, client: Any, name: str, embeddings: Embeddings) -> None:
        self._client, self._name, self._embeddings = client, f"{name}{SUFFIX}", embeddings

    def _answers(self) -> Any:
        return self._client.get_or_create_collection(
            self._name, embedding_function=None, configuration={"hnsw": {"space": "cosine"}}
        )

    @staticmethod
    def key(question: str, scope: str) -> str:
        """Return the id of a question's entry under one set of answer-shaping settings."""
        return hashlib.sha256(f"{scope}\n{normalise(question)}".encode()).hexdigest()

    def find(
        self, question: str, scope: str, revision: int, min_similarity: float
    ) -> Recalled | None:
        """Return the stored answer to this question, or to one at least `min_similarity` alike."""
        answers, now = self._answers(), time.time()
        got = answers.get(ids=[self.key(question, scope)], include=["metadatas", "documents"])
        if got["ids"]:
            meta = got["metadatas"][0]
            if meta["revision"] == revision and meta["expires"] > now:
                return Recalled(json.loads(got["documents"][0]), str(meta["question"]), 1.0)
        if min_similarity >= 1.0:
            return None
        where = {"$and": [{"scope": scope}, {"revision": revision}, {"expires": {"$gt": now}}]}
        found = answers.query(
            query_embeddings=[self._embeddings.embed_query(question)],
            n_results=1,
            where=where,
            include=["metadatas", "documents", "distances"],
        )
        if not found["ids"][0]:
            return None
        similarity = 1.0 - float(found["distances"][0][0])
        if similarity < min_similarity:
            return None
        meta = found["metadatas"][0][0]
        return Recalled(json.loads(found["documents"][0][0]), str(meta["question"]), similarity)

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
