"""Fake sources: a keyword retriever, a web search, hashed embeddings and a few documents."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import numpy as np
from adaptive_rag.providers.web import WebSearchError
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.retrievers import BaseRetriever


class KeywordRetriever(BaseRetriever):
    """Rank documents by shared words with the query (a stand-in for the real index)."""

    docs: list[Document]
    k: int = 4
    fail: bool = False
    agree: bool = False  # mark the top hit as agreed on by both channels, like HybridRetriever

    def _get_relevant_documents(self, query: str, *, run_manager: Any = None) -> list[Document]:
        if self.fail:
            raise ConnectionError("vector store is down")
        words = set(re.findall(r"\w+", query.lower()))
        scored = [
            (len(words & set(re.findall(r"\w+", d.page_content.lower()))), d) for d in self.docs
        ]
        found = [d for s, d in sorted(scored, key=lambda x: -x[0]) if s > 0][: self.k]
        return [
            Document(
                page_content=d.page_content,
                metadata={**d.metadata, "agreement": self.agree and i == 0},
            )
            for i, d in enumerate(found)
        ]


class FakeWeb:
    """A web search that returns fixed results or raises like an unreachable Tavily."""

    def __init__(self, results: list[Document] | None = None, error: str | None = None) -> None:
        self.results = results or []
        self.error = error
        self.queries: list[str] = []

    def search(self, query: str, max_results: int) -> list[Document]:
        self.queries.append(query)
        if self.error:
            raise WebSearchError(self.error)
        return self.results[:max_results]


def bridge_docs() -> list[Document]:
    """A made-up bridge: the inventor in one passage, where they were born in the other."""
    return [
        Document(
            page_content="The Zephyr kettle was invented by Ada Brook in 1998.",
            metadata={"id": "zephyr", "source": "zephyr.md", "title": "Zephyr"},
        ),
        Document(
            page_content="Ada Brook, engineer, was born in Leeds.",
            metadata={"id": "brook", "source": "brook.md", "title": "Ada Brook"},
        ),
    ]


def kb_docs() -> list[Document]:
    return [
        Document(
            page_content="The Zephyr X2 kettle has a 1.7 litre capacity and boils in 3 minutes.",
            metadata={"id": "kettle-1", "source": "products/zephyr.md", "title": "Zephyr X2"},
        ),
        Document(
            page_content="Returns are accepted within 30 days of purchase with a receipt.",
            metadata={"id": "policy-1", "source": "policies/returns.md", "title": "Returns"},
        ),
        Document(
            page_content="The Aurora lamp uses 9 watts and lasts 25000 hours.",
            metadata={"id": "lamp-1", "source": "products/aurora.md", "title": "Aurora lamp"},
        ),
    ]


def web_docs() -> list[Document]:
    return [
        Document(
            page_content="Breaking: the Zephyr X3 was announced today.",
            metadata={
                "origin": "web",
                "id": "https://news.example/x3",
                "source": "https://news.example/x3",
                "title": "X3 news",
            },
        )
    ]


SAMPLE = Path(__file__).resolve().parents[1] / "examples" / "sample_kb"


def make_pdf(text: str) -> bytes:
    """Write a one-page PDF showing `text`, with a correct cross-reference table."""
    stream = f"BT /F1 12 Tf 20 50 Td ({text}) Tj ET".encode()
    objects = [
        b"<</Type/Catalog/Pages 2 0 R>>",
        b"<</Type/Pages/Kids[3 0 R]/Count 1>>",
        b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 100]/Contents 4 0 R"
        b"/Resources<</Font<</F1 5 0 R>>>>>>",
        b"<</Length %d>>stream\n%s\nendstream" % (len(stream), stream),
        b"<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer<</Size %d/Root 1 0 R>>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


class HashEmbeddings(Embeddings):
    """Bag of hashed words (and CJK characters): deterministic, fast, meaning-blind."""

    dim = 256

    def _one(self, text: str) -> list[float]:
        vec = np.zeros(self.dim, dtype=np.float32)
        for token in re.findall(r"[a-z0-9]+|[\u4e00-\u9fff]", text.lower()):
            vec[int(hashlib.md5(token.encode()).hexdigest(), 16) % self.dim] += 1.0
        norm = float(np.linalg.norm(vec)) or 1.0
        return (vec / norm).tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._one(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._one(text)


class Titled:
    """A knowledge base as Services reads it for its main language: its sources' titles only."""

    def __init__(self, titles: dict[str, int]) -> None:
        self.titles = titles

    def sources(self) -> list[dict[str, Any]]:
        return [{"title": t, "chunks": n} for t, n in self.titles.items()]

    def revision(self) -> int:
        return 1

    def answer_cache(self) -> Any:
        raise AssertionError("the answer cache is off in these runs")
