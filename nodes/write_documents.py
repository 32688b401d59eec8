"""Write documents (the knowledge graph): delete and add the writer's documents, each with its fate.

Who writes comes from the signed-in identity on a server, never from the request: documents are
added and deleted as the writer's own (`public` ones by knowledge-base administrators only), and a
server without authentication takes no writes unless the deployment turns them on. A document
that cannot be read fails alone with its reason; the rest are ingested, with progress streamed as
`custom` events while a batch embeds. Nothing here raises: a knowledge base that cannot be opened
or written fails each document with the reason.
"""

from __future__ import annotations

import base64
import binascii
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, cast

from adaptive_rag.core.access import access_metadata
from adaptive_rag.knowledge.ingest import Progress
from adaptive_rag.knowledge.interface import KnowledgeStore
from adaptive_rag.knowledge.loading import FileDocument, Given, TextDocument, Unreadable
from adaptive_rag.schema.checks import looks_binary
from adaptive_rag.schema.knowledge import (
    ADMINS,
    MAX_DOCUMENT_BYTES,
    MAX_DOCUMENTS,
    OPEN_WRITES,
    DocumentIn,
    KnowledgeContext,
    KnowledgeOutput,
    KnowledgeState,
    Outcome,
    Status,
    admins,
    knowledge_problem,
    open_writes,
)
from adaptive_rag.schema.run_context import knowledge_context_of
from adaptive_rag.services import Opener
from langgraph.runtime import Runtime

NO_AUTH = (
    "this server takes no writes without authentication: set ADAPTIVE_RAG_AUTH_SECRET (or"
    f" ADAPTIVE_RAG_AUTH_JWKS_URL) and send a bearer token, or set {OPEN_WRITES}=true to let"
    " every caller write public documents"
)


def write_documents(
    state: KnowledgeState, runtime: Runtime[KnowledgeContext], open_kb: Opener
) -> KnowledgeOutput:
    """Delete, then add, the request's documents as the writer's own; say what became of each."""
    problem = knowledge_problem(dict(state))
    if problem:
        return {"results": [], "counts": {}, "error": problem}
    ctx, claims = knowledge_context_of(runtime)
    documents = list(state.get("documents") or [])
    deletes = list(state.get("delete") or [])
    names = [str(d.get("name", "")) for d in documents] + deletes
    if not names:
        return {"results": [], "counts": {}}
    refusal, owner, groups = writer_of(state, ctx, claims)
    if refusal:
        return done([Outcome(name=n, status="refused", reason=refusal) for n in names])
    try:
        kb = open_kb(ctx)
        results = [_delete(kb, name, owner) for name in deletes]
        given = [
            decoded(doc)
            if i < MAX_DOCUMENTS
            else Unreadable(
                str(doc.get("name", "")),
                f"over the limit of {MAX_DOCUMENTS} documents a request: send it in another",
            )
            for i, doc in enumerate(documents)
        ]
        if given:
            report = kb.ingest_documents(
                given, owner=owner, groups=groups, on_progress=_streamer(runtime)
            )
            results += [
                Outcome(name=n, status=cast(Status, s), reason=r) for n, s, r in report.outcomes
            ]
    except Exception as exc:  # a store down, a write lock held too long: each item says so
        reason = f"the knowledge base could not be written ({type(exc).__name__}: {exc})"
        return done([Outcome(name=n, status="failed", reason=reason) for n in names])
    return done(results)


def writer_of(
    state: KnowledgeState, ctx: KnowledgeContext, claims: Mapping[str, Any] | None
) -> tuple[str, str, tuple[str, ...]]:
    """Return why the writes are refused ('' if they are not), the owner, and the groups.

    With no server between (claims None), the host's process writes as its settings say.
    """
    reader = ctx.reader()
    public = bool(state.get("public"))
    share = tuple(g for g in state.get("share_with") or [] if g.strip())
    try:
        access_metadata("", share)  # a malformed group name is refused by name
    except ValueError as exc:
        return str(exc), "", ()
    if claims is None:
        return "", "" if public else reader.user, share
    if not reader.user:
        if not open_writes():
            return NO_AUTH, "", ()
        if share:
            return "sharing with groups needs a signed-in writer", "", ()
        return "", "", ()
    owner = "" if public else reader.user
    named = admins()
    if not reader.may_write(owner, named):
        return f"public documents are written by the administrators {ADMINS} names", "", ()
    foreign = sorted(set(share) - reader.named_groups())
    if foreign and not reader.may_write("", named):
        return f"you may share only with your own groups, not {', '.join(foreign)}", "", ()
    return "", owner, share


def decoded(doc: DocumentIn) -> Given | Unreadable:
    """Return a request's document as the knowledge base reads it, or why it cannot be."""
    name = str(doc.get("name", "")).strip()
    encoded = doc.get("content_base64")
    if encoded is not None:
        try:
            data = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            return Unreadable(name, "content_base64 is not valid base64")
        if len(data) > MAX_DOCUMENT_BYTES:
            return Unreadable(name, _too_large(len(data)))
        return FileDocument(name, data)
    text = str(doc.get("text") or "")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_DOCUMENT_BYTES:
        return Unreadable(name, _too_large(size))
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        return Unreadable(name, "not valid UTF-8 text")
    if looks_binary(text):
        return Unreadable(name, "looks like binary data, not text: send a file as content_base64")
    return TextDocument(name, text, str(doc.get("title") or ""), dict(doc.get("metadata") or {}))


def done(results: list[Outcome]) -> KnowledgeOutput:
    """Return the results with their counts by what happened."""
    return {"results": results, "counts": dict(Counter(r["status"] for r in results))}


def _delete(kb: KnowledgeStore, name: str, owner: str) -> Outcome:
    """Delete one of the writer's sources; a name they hold none of is `not_found`."""
    removed = int(kb.delete(name, owner))
    if removed:
        return Outcome(name=name, status="deleted", reason=f"{removed} chunks removed")
    whose = f"{owner}'s" if owner else "public"
    return Outcome(name=name, status="not_found", reason=f"no {whose} source of that name")


def _too_large(size: int) -> str:
    return f"{size} bytes; the limit is {MAX_DOCUMENT_BYTES} bytes a document"


def _streamer(runtime: Runtime[KnowledgeContext]) -> Callable[[Progress], None]:
    """Return a progress callback that streams each step as a `custom` event."""

    def stream(progress: Progress) -> None:
        runtime.stream_writer(
            {
                "step": "write_documents",
                "documents": progress.documents,
                "documents_total": progress.documents_total,
                "chunks": progress.chunks,
                "chunks_total": progress.chunks_total,
            }
        )

    return stream
