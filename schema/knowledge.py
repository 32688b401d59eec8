"""The knowledge graph's schemas: what a request carries, what it returns, its settings.

The `knowledge` graph (graph/knowledge.py) adds, replaces, deletes and lists the knowledge base's
documents through the server. A request is checked here the same way in Python and over HTTP
(webapp): a malformed one is refused whole, with what is wrong; a document that cannot be read
fails alone, with its reason, and the rest are ingested.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Literal, Required

from adaptive_rag.core.access import Reader
from adaptive_rag.core.environment import default_collection
from typing_extensions import TypedDict

MAX_DOCUMENTS = 100
"""Documents one request may add; those past it fail with their reason (send another request)."""
MAX_DOCUMENT_BYTES = 20 * 1024 * 1024
"""The largest document accepted, in bytes of its text or decoded file."""
MAX_REQUEST_BYTES = 64 * 1024 * 1024
"""The largest request body the HTTP layer reads (base64 makes a file a third larger)."""

OPEN_WRITES = "ADAPTIVE_RAG_OPEN_WRITES"
"""Environment variable: 'true' lets a server without authentication take writes (as public)."""
ADMINS = "ADAPTIVE_RAG_KB_ADMINS"
"""Environment variable: users and groups (comma-separated) who may write public documents and
any owner's."""


class DocumentIn(TypedDict, total=False):
    """A document to add: its text, or a file's bytes in base64 (its name's extension decides)."""

    name: Required[str]
    """Its source name, unique per owner: the same name again replaces it."""
    text: str
    content_base64: str
    title: str
    metadata: dict[str, Any]


class KnowledgeInput(TypedDict, total=False):
    """Documents to add and sources to delete; an empty request only lists the sources."""

    documents: list[DocumentIn]
    delete: list[str]
    """Source names (as `sources` lists them) to delete, of the writer's own."""
    share_with: list[str]
    """Groups, among the writer's own, that may read the added documents too."""
    public: bool
    """Write public documents, for every reader (knowledge-base administrators only)."""


Status = Literal[
    "added", "replaced", "unchanged", "duplicate", "deleted", "not_found", "failed", "refused"
]


class Outcome(TypedDict):
    """What happened to one document or source, and why when it was not written."""

    name: str
    status: Status
    reason: str


class KnowledgeOutput(TypedDict, total=False):
    """Per document what happened, the counts, and the sources the caller may read."""

    results: list[Outcome]
    counts: dict[str, int]
    sources: list[dict[str, Any]]
    """Each source the caller may read: name, chunks, title, owner and groups."""
    revision: int
    """The knowledge base's revision after the writes (it moves with every write)."""
    error: str
    """Why nothing was done: a malformed request, or a knowledge base that cannot be opened."""


class KnowledgeState(KnowledgeInput, KnowledgeOutput, total=False):
    """The graph's state: the request, then what was done."""


def _about(text: str) -> dict[str, str]:
    return {"description": text}


@dataclass(kw_only=True)
class KnowledgeContext:
    """Settings of the knowledge graph: which knowledge base, and who is writing."""

    kb_path: str = field(
        default="",
        metadata=_about(
            "Folder of the on-disk knowledge base. Default empty: the user data directory, or a"
            " Chroma server when CHROMA_HOST/CHROMA_PORT are set."
        ),
    )
    collection: str = field(
        default_factory=default_collection,
        metadata=_about(
            "Knowledge-base collection to write and list. Default: ADAPTIVE_RAG_COLLECTION, else"
            " 'default' (the one the agent searches)."
        ),
    )
    embedding_model: str = field(
        default="auto",
        metadata=_about(
            "Embedding model of a new collection, as provider:model; an existing one keeps its"
            " own. Default 'auto': the embedded multilingual e5."
        ),
    )
    user: str = field(
        default="",
        metadata=_about(
            "Who writes (owner of the documents added). A server with authentication sets it"
            " from the token. Default: anonymous (public documents)."
        ),
    )
    groups: str = field(
        default="",
        metadata=_about(
            "Comma-separated groups of the writer. A server with authentication sets them from"
            " the token. Default: none."
        ),
    )

    def reader(self) -> Reader:
        """Return who is asking, as the access rule takes it."""
        return Reader.of(self.user, self.groups.split(","))


def admins() -> tuple[str, ...]:
    """Return the users and groups the deployment names knowledge-base administrators."""
    raw = os.environ.get(ADMINS, "")
    return tuple(name.strip() for name in raw.split(",") if name.strip())


def open_writes() -> bool:
    """Whether a server without authentication takes writes (the deployment turned it on)."""
    return os.environ.get(OPEN_WRITES, "").strip().lower() in ("1", "true", "yes", "on")


def knowledge_problem(data: object) -> str:
    """Say what is wrong with a knowledge request's input, or '' if it may run.

    Only its shape: a document too large, empty or unreadable fails alone when the graph runs.
    """
    if data is None:
        return ""
    if not isinstance(data, dict):
        return f"input must be an object, not {type(data).__name__}"
    documents = data.get("documents")
    if documents is not None and not isinstance(documents, list):
        return f"input.documents must be a list, not {type(documents).__name__}"
    for i, doc in enumerate(documents or []):
        problem = _document_problem(doc)
        if problem:
            return f"input.documents[{i}]: {problem}"
    for key in ("delete", "share_with"):
        names = data.get(key)
        if names is not None and (
            not isinstance(names, list) or not all(isinstance(n, str) for n in names)
        ):
            return f"input.{key} must be a list of strings"
    if "public" in data and not isinstance(data["public"], bool):
        return f"input.public must be true or false, not {type(data['public']).__name__}"
    return ""


def _document_problem(doc: object) -> str:
    """Say what is wrong with one document's shape, or ''."""
    if not isinstance(doc, dict):
        return f"a document must be an object, not {type(doc).__name__}"
    name = doc.get("name")
    if not isinstance(name, str) or not name.strip():
        return "a document needs a non-empty 'name' (its source name, e.g. 'notes.md')"
    given = [key for key in ("text", "content_base64") if doc.get(key) is not None]
    if len(given) != 1:
        return f"{name}: give exactly one of 'text' or 'content_base64'"
    if not isinstance(doc[given[0]], str):
        return f"{name}: '{given[0]}' must be a string"
    for key, kind in (("title", str), ("metadata", dict)):
        if doc.get(key) is not None and not isinstance(doc[key], kind):
            return f"{name}: '{key}' must be a {'string' if kind is str else 'object'}"
    return ""
