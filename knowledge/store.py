"""The Chroma store's old place, kept for one release: use knowledge.chroma.store.ChromaStore.

`KnowledgeBase` is `ChromaStore` under its old name; reading it here warns.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from adaptive_rag.knowledge.errors import KnowledgeBaseBusyError as KnowledgeBaseBusyError
from adaptive_rag.knowledge.errors import KnowledgeBaseError as KnowledgeBaseError

if TYPE_CHECKING:
    from adaptive_rag.knowledge.chroma.store import ChromaStore

    KnowledgeBase = ChromaStore


def __getattr__(name: str) -> Any:
    """Return `KnowledgeBase` (ChromaStore), with a DeprecationWarning."""
    if name != "KnowledgeBase":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from adaptive_rag.knowledge.chroma.store import ChromaStore

    warnings.warn(
        "adaptive_rag.knowledge.store.KnowledgeBase is now"
        " adaptive_rag.knowledge.chroma.store.ChromaStore; the old name goes in the next release",
        DeprecationWarning,
        stacklevel=2,
    )
    return ChromaStore
