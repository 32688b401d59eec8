"""The knowledge base in Chroma (embedded or a server), with its derived index kept beside it.

Several processes may share one: writers (ingest, delete, a revision bump, an upgrade) hold the
collection's write lock across processes (knowledge.chroma.locking) for their whole write, and every
write gives the collection a new revision token, so a reader rebuilds what it derived from it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adaptive_rag.core.access import Reader
from adaptive_rag.core.environment import default_collection, env_seconds
from adaptive_rag.knowledge.chroma.answers import ChromaAnswers
from adaptive_rag.knowledge.chroma.clients import chroma_client
from adaptive_rag.knowledge.chroma.collection import derive, summarise
from adaptive_rag.knowledge.chroma.derived import DerivedIndex
from adaptive_rag.knowledge.chroma.locking import LockTimeout, WriteLock
from adaptive_rag.knowledge.chroma.searching import ChromaSearching
from adaptive_rag.knowledge.chroma.upgrade import get_all, pages, pending, upgrade
from adaptive_rag.knowledge.chroma.writing import TOKEN, ChromaWrites, create_collection
from adaptive_rag.knowledge.embeddings import load_embeddings, resolve_embeddings_spec
from adaptive_rag.knowledge.errors import KnowledgeBaseBusyError, KnowledgeBaseError
from adaptive_rag.knowledge.interface import KnowledgeStore, StoredChunk
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

WRITE_WAIT = 900.0
"""Seconds a writer waits for another process's write to end (ADAPTIVE_RAG_WRITE_WAIT)."""
CATCH_UP = "adaptive-rag:catch-up"
"""An id no chunk has: deleting it makes embedded Chroma load other processes' writes."""
_log = logging.getLogger(__name__)


class ChromaStore(ChromaWrites, ChromaSearching, KnowledgeStore):
    """One collection in Chroma: its chunks, their parent sections, and its derived index."""

    def __init__(
        self,
        client: Any,
        name: str,
        spec: str,
        embeddings: Embeddings,
        where: str,
        bm25: Path,
        machine: str = "",
    ) -> None:
        self._client = client
        self.name = name
        self.embedding_model = spec
        self._embeddings = embeddings
        self.location = where
        self._machine = machine  # this machine on a shared Chroma server (data_folder.machine_id)
        self._bm25_dir = bm25 / name
        self._derived: DerivedIndex | None = None
        self._lock = threading.Lock()
        self._writer = WriteLock(bm25 / f"{name}@write.lock")
        self._embedded = bool(client.get_settings().is_persistent)
        self._seen = ""
        """The fingerprint whose writes this process's vector search has loaded."""
        self.on_wait: Callable[[str], None] = _log.warning
        """Told, once per write, that this writer waits for another process's write."""
        self._chunks = self._collection(name, create=False)
        self._parents = self._collection(f"{name}.parents", create=False)

    @classmethod
    def open(
        cls,
        kb_path: str = "",
        collection: str = "",
        embedding_model: str = "auto",
        create: bool = False,
        embeddings: Embeddings | None = None,
    ) -> ChromaStore:
        """Open a collection ('' is the default one); with create=True make it.

        Without create, a missing or empty collection is a KnowledgeBaseError that says how to
        fill it, so no question is answered as if an empty knowledge base had been searched.
        `embeddings` overrides the model built from `embedding_model` (which still names it).
        """
        collection = collection or default_collection()
        spec = resolve_embeddings_spec(embedding_model)
        try:
            client, where, bm25, machine = chroma_client(kb_path)
        except (ConnectionError, ValueError) as exc:
            raise KnowledgeBaseError(str(exc)) from exc
        try:
            existing = client.get_collection(collection, embedding_function=None)
        except ValueError as exc:  # bad name
            raise KnowledgeBaseError(f"collection name {collection!r}: {exc}") from exc
        except Exception:
            existing = None
        if not create and (existing is None or existing.count() == 0):
            state = "no knowledge base" if existing is None else "the knowledge base"
            empty = "" if existing is None else " is empty"
            raise KnowledgeBaseError(
                f"{state} {collection!r} at {where}{empty}: add documents first with"
                f" `adaptive-rag ingest PATH --collection {collection}`"
            )
        if existing is None:
            existing = create_collection(client, collection, spec)
        metadata = existing.metadata or {}
        recorded = metadata.get("embedding_model")
        if recorded and recorded != spec:
            raise KnowledgeBaseError(
                f"collection {collection!r} was built with embeddings {recorded!r} but"
                f" {spec!r} was asked for: use embedding_model={recorded!r}, or ingest"
                " into a new collection"
            )
        vectors = embeddings or load_embeddings(spec)
        kb = cls(client, collection, spec, vectors, where, bm25, machine)
        if pending(metadata):
            kb._upgrade()
        return kb

    def _upgrade(self) -> None:
        """Bring chunks written by an older version up to date (knowledge.chroma.upgrade), once."""
        with self._writing():  # another process may have upgraded it meanwhile: read again
            collection = self._client.get_collection(self.name, embedding_function=None)
            if upgrade(collection, self._chunks, self._parents, collection.metadata or {}):
                self._bump()  # the graph derived from the old entities is stale

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """Hold the collection's write lock across processes for the block (re-entrant).

        The lock reaches every process on this machine that shares the data folder (for a Chroma
        server too: the lock lives beside the BM25 index). Processes on other machines that share
        a server are not serialised: their writes stay whole (every chunk is written by id), and
        the revision token every bump writes keeps each reader's index in step with them.
        """
        wait = env_seconds("ADAPTIVE_RAG_WRITE_WAIT", WRITE_WAIT)

        def waiting(holder: str) -> None:
            self.on_wait(
                f"waiting for {holder}, which is writing to {self.name!r} at {self.location}"
                f" (up to {wait:.0f}s; ADAPTIVE_RAG_WRITE_WAIT)"
            )

        try:
            with self._writer.held(wait, waiting):
                yield
        except LockTimeout as exc:
            raise KnowledgeBaseBusyError(
                f"{exc.holder} kept writing to {self.name!r} at {self.location} for"
                f" {exc.waited:.0f}s: try again when it is done, or wait longer with"
                " ADAPTIVE_RAG_WRITE_WAIT"
            ) from exc

    def _collection(self, name: str, create: bool) -> Any:
        """Return a Chroma collection handle (ours, never Chroma's default embedder)."""
        if create:
            return self._client.get_or_create_collection(name, embedding_function=None)
        return self._client.get_collection(name, embedding_function=None)

    # -- reading --------------------------------------------------------------------------

    def count(self) -> int:
        """Return how many chunks the collection holds."""
        return int(self._chunks.count())

    def answer_cache(self) -> ChromaAnswers:
        """Return the earlier answers over this collection (in the same store)."""
        return ChromaAnswers(self._client, self.name, self._embeddings)

    def revision(self) -> int:
        """Return the write counter every ingest and delete bumps (the answer cache's key)."""
        return int(self._metadata().get("revision", 0))

    def _metadata(self) -> dict[str, Any]:
        """Return the collection's metadata as stored now (other processes write it too)."""
        return dict(self._client.get_collection(self.name, embedding_function=None).metadata or {})

    def _fingerprint(self) -> str:
        """Return what names the collection's content now: its revision and that write's token.

        Two writes never share a token, even when processes on other machines bump the counter
        at once and one increment is lost, so an index derived before a write never passes for
        one derived after it.
        """
        meta = self._metadata()
        return f"{int(meta.get('revision', 0))}.{meta.get(TOKEN, '')}"

    def _observe(self) -> str:
        """Return the fingerprint; after another process's write, load it into vector search.

        Embedded Chroma keeps each process's vector index in memory and brings it up to date
        only when that process writes: a write of nothing (deleting an id no chunk has) does, under
        the write lock. While another process writes, this waits for a later call.
        """
        fingerprint = self._fingerprint()
        if fingerprint == self._seen or not self._embedded:
            self._seen = fingerprint
            return fingerprint
        try:
            with self._writer.held(0.0, lambda holder: None):
                self._chunks.delete(ids=[CATCH_UP])
            self._seen = fingerprint
        except LockTimeout:
            pass  # a writer holds it: caught up once it is done
        except Exception as exc:  # a store that refuses writes still searches what it has
            _log.warning("cannot load other processes' writes into vector search: %s", exc)
            self._seen = fingerprint
        return fingerprint

    def derived_index(self) -> DerivedIndex:
        """Return the BM25 index, readers, graph and facets, rebuilt if the collection changed."""
        fingerprint = self._observe()
        with self._lock:
            if self._derived is None or self._derived.fingerprint != fingerprint:
                saved = DerivedIndex.load(self._bm25_dir)
                if saved is None or saved.fingerprint != fingerprint:
                    saved = self._rebuild_derived_index(fingerprint)
                self._derived = saved
            return self._derived

    def _rebuild_derived_index(self, revision: str) -> DerivedIndex:
        """Index every chunk of the collection (BM25, readers, graph) and save it beside it."""
        index = derive(self._chunks, revision)
        index.save(self._bm25_dir)
        return index

    def get(self, ids: list[str]) -> list[Document]:
        """Return chunks by id, in the order asked (missing ids are skipped)."""
        if not ids:
            return []
        found = self._chunks.get(ids=ids, include=["documents", "metadatas"])
        by_id = {
            cid: Document(page_content=doc or "", metadata=dict(meta or {}), id=cid)
            for cid, doc, meta in zip(
                found["ids"], found["documents"], found["metadatas"], strict=True
            )
        }
        return [by_id[i] for i in ids if i in by_id]

    def parents(self, ids: list[str]) -> dict[str, str]:
        """Return parent-section texts by id (small-to-big)."""
        if not ids:
            return {}
        found = self._parents.get(ids=list(dict.fromkeys(ids)), include=["documents"])
        return dict(zip(found["ids"], (d or "" for d in found["documents"]), strict=True))

    def stored(self, vectors: bool = False) -> Iterator[StoredChunk]:
        """Yield every chunk the collection holds, read in pages (with its vector if asked).

        Every reader's chunks, and no snapshot: a write meanwhile may shift the pages.
        """
        include = ["documents", "metadatas", *(["embeddings"] if vectors else [])]
        for page in pages(self._chunks, include):
            found = page["embeddings"] if vectors else None
            for i, cid in enumerate(page["ids"]):
                vector = None if found is None else [float(x) for x in found[i]]
                text, meta = page["documents"][i] or "", dict(page["metadatas"][i] or {})
                yield StoredChunk(cid, text, meta, vector)

    def stored_sections(self) -> Iterator[tuple[str, str, dict[str, Any]]]:
        """Yield every whole section (small-to-big): its id, text, and its source and owner."""
        for page in pages(self._parents, ["documents", "metadatas"]):
            for pid, text, meta in zip(
                page["ids"], page["documents"], page["metadatas"], strict=True
            ):
                yield pid, text or "", dict(meta or {})

    def sources(self, reader: Reader | None = None) -> list[dict[str, Any]]:
        """List ingested sources with their chunk counts, titles and readers (a reader's only)."""
        return summarise(get_all(self._chunks, ["metadatas"])["metadatas"], reader)


if TYPE_CHECKING:  # mypy: every method of the interface is implemented (none left abstract)
    _implements: type[KnowledgeStore] = ChromaStore
