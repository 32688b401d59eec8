"""Documents and readers the access rule is checked on, in core and in each store's filter."""

from __future__ import annotations

from adaptive_rag.core.access import Reader

DOCS = {
    "public": {"owner": ""},
    "alice": {"owner": "alice"},
    "bob": {"owner": "bob"},
    "fin": {"owner": "carol", "groups": ["fin", "ops"]},
    "legacy": {"source": "old.md"},  # no owner: written before access control
}
READERS = [Reader(), Reader("alice"), Reader("bob", ("fin",)), Reader("mallory", ("hr",))]
