"""What a knowledge-base store offers: the one interface the graph, the CLI and the tools use.

`knowledge.chroma.store.ChromaStore` (Chroma, on disk or a server, with the BM25 index, entity
graph and facet index derived beside it) and `knowledge.postgres.store.PostgresStore` implement
it, each naming it as its base; nothing here imports either. Searches return chunk ids with
scores, best first, and take a `Reader`: a store never returns what the reader may not read.
A metadata filter is equalities (knowledge.filters.Equalities) that each store translates.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, runtime_checkable

from adaptive_rag.core.access import PUBLIC, Reader
from adaptive_rag.knowledge.filters import Equalities
from langchain_core.documents import Document

if TYPE_CHECKING:
    from adaptive_rag.knowledge.answer_cache import Answers
    from adaptive_rag.knowledge.facets import Named
    from adaptive_rag.knowledge.graph import Reached
    from adaptive_rag.knowledge.ingest import Progress
    from adaptive_rag.knowledge.loading import Given, Unreadable
    from adaptive_rag.knowledge.preparing import IngestReport


class StoredChunk(NamedTuple):
    """One chunk as a store holds it: what a copy to another store, or a benchmark, reads."""

    id: str
    text: str
    metadata: dict[str, Any]
    vector: list[float] | None
    """Its embedding, when asked for (None otherwise)."""


class Documents(Protocol):
    """What every store does: hold a collection's documents, read them back, write, delete them."""

    name: str
    """The collection's name."""
    location: str
    """Where it is kept (a folder, or a server's address), for messages."""
    on_wait: Callable[[str], None]
    """Told, in words, while a write waits for another process's."""

    def count(self) -> int:
        """Return how many chunks the collection holds."""
        ...

    def revision(self) -> int:
        """Return the collection's revision: it moves with every write."""
        ...

    def sources(self, reader: Reader | None = None) -> list[dict[str, Any]]:
        """List the sources (a name under its owner) with chunk counts, titles and readers."""
        ...

    def get(self, ids: list[str]) -> list[Document]:
        """Return chunks by id, in the order asked (missing ones left out)."""
        ...

    def parents(self, ids: list[str]) -> dict[str, str]:
        """Return the whole sections (small-to-big) by id."""
        ...

    def stored_sections(self) -> Iterator[tuple[str, str, dict[str, Any]]]:
        """Yield every whole section (small-to-big): its id, text, and its source and owner."""
        ...

    def stored(self, vectors: bool = False) -> Iterator[StoredChunk]:
        """Yield every chunk the collection holds, read in pages (with its vector if asked).

        Every reader's chunks, and no snapshot: run it while nothing writes (a copy, a benchmark).
        """
        ...

    def ingest(
        self,
        paths: list[str],
        progress: bool = True,
        owner: str = "",
        groups: tuple[str, ...] = (),
    ) -> IngestReport:
        """Add files and folders as `owner`'s; unchanged ones are skipped, changed ones replaced."""
        ...

    def ingest_documents(
        self,
        documents: Iterable[Given | Unreadable],
        progress: bool = False,
        owner: str = "",
        groups: tuple[str, ...] = (),
        on_progress: Callable[[Progress], None] | None = None,
    ) -> IngestReport:
        """Add documents given in memory, each with its fate."""
        ...

    def delete(self, source: str, owner: str = PUBLIC) -> int:
        """Remove one owner's source of that name; return how many chunks went."""
        ...


class SearchChannels(Protocol):
    """The searches the retriever fuses: by meaning, by keywords, within named values, by graph."""

    def embed_query(self, query: str) -> list[float]:
        """Return the query's embedding, as the vector search makes it."""
        ...

    def vector_search(
        self,
        query: str,
        n: int,
        where: Equalities | None = None,
        reader: Reader | None = None,
        vector: list[float] | None = None,
    ) -> list[tuple[str, float]]:
        """Return up to n (chunk id, cosine similarity) pairs the reader may read.

        `where`: equalities the chunks' metadata must hold (knowledge.filters), in no store's
        dialect: each store translates them, and the reader, into its own.
        """
        ...

    def vector_search_within(
        self,
        vector: list[float],
        n: int,
        values: list[Named],
        nearest: list[tuple[str, float]],
        reader: Reader,
        where: Equalities | None = None,
    ) -> list[list[tuple[str, float]]]:
        """Return, per named value of the documents' fields, its best n chunks by meaning."""
        ...

    def keyword_search(
        self, query: str, n: int, reader: Reader | None = None
    ) -> list[tuple[str, float]]:
        """Return up to n (chunk id, BM25 score) pairs the reader may read."""
        ...

    def keyword_search_within(
        self, query: str, n: int, reader: Reader, values: list[Named]
    ) -> list[list[tuple[str, float]]]:
        """Return, per named value of the documents' fields, its best n chunks by BM25."""
        ...

    def named_values(self, question: str) -> list[Named]:
        """Return the values of the documents' own fields the question names."""
        ...

    def graph_search(
        self, names: Collection[str], seeds: list[tuple[str, float]], n: int, reader: Reader
    ) -> list[tuple[str, Reached]]:
        """Return up to n chunks the entity graph ranks from the seeds and the names."""
        ...


class CachedAnswers(Protocol):
    """A store's cache of earlier answers, and the revision an answer is kept at."""

    def revision(self) -> int:
        """Return the collection's revision: it moves with every write."""
        ...

    def answer_cache(self) -> Answers:
        """Return the collection's cache of earlier answers."""
        ...


@runtime_checkable
class KnowledgeStore(Documents, SearchChannels, CachedAnswers, Protocol):
    """A knowledge base: its documents, its search channels and its answer cache (each store)."""
