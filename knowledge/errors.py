"""What a store raises when it cannot be used as asked (every store raises these)."""

from __future__ import annotations


class KnowledgeBaseError(RuntimeError):
    """The knowledge base cannot be used as asked; the message says what to do."""

    failure_kind = "knowledge_base_unavailable"
    """How a node reports it (core.failures)."""


class KnowledgeBaseBusyError(KnowledgeBaseError):
    """Another process kept writing to the collection for longer than a writer waits."""
