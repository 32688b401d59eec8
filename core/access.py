"""Who may read and who may write which document: one rule each, used everywhere.

A document carries `owner` ("" for everyone) and optionally `groups`; a reader sees the
public documents, their own, and those shared with one of their groups. A writer adds, replaces
and deletes their own documents; public ones and other owners' only as a knowledge-base
administrator (a user or group the deployment names).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

OWNER = "owner"
"""Metadata key: the user or tenant a document belongs to; "" means every reader."""
GROUPS = "groups"
"""Metadata key: the groups a document is shared with (absent when none)."""
PUBLIC = ""

_NAME = re.compile(r"^[^\s,\x00-\x1f\x7f](?:[^,\x00-\x1f\x7f]{0,254}[^\s,\x00-\x1f\x7f])?$")
"""An identity as identity providers issue them (e.g. auth0|123, alice@example.com)."""


def check_name(kind: str, value: str) -> str:
    """Return an owner or group name unchanged, or raise a ValueError that says what is allowed."""
    if not _NAME.match(value):
        raise ValueError(
            f"{kind} {value!r} must be 1-256 characters with no comma, control character or"
            " space at either end"
        )
    return value


@dataclass(frozen=True)
class Reader:
    """Who is asking: a user (or tenant) id and the groups they belong to; "" is anonymous."""

    user: str = PUBLIC
    groups: tuple[str, ...] = ()
    everyone: bool = False
    """Read every document, unfiltered: for tools (benchmarks); never built from a request."""

    @classmethod
    def of(cls, user: str, groups: Iterable[str] = ()) -> Reader:
        """Build a reader from untrusted values: names are checked, groups sorted and unique."""
        user = user.strip()
        if user:
            check_name("user", user)
        named = sorted({check_name("group", g.strip()) for g in groups if g.strip()})
        return cls(user, tuple(named))

    def may_read(self, meta: Mapping[str, Any]) -> bool:
        """Whether a document with this metadata is readable (a missing owner is not public)."""
        if self.everyone:
            return True
        owner = meta.get(OWNER)
        if owner is None:
            return False  # written before access control, or by something else: never assume
        if owner == PUBLIC or (self.user and owner == self.user):
            return True
        shared = meta.get(GROUPS) or ()
        return isinstance(shared, list | tuple) and bool(set(shared) & self.named_groups())

    def may_write(self, owner: str, admins: Iterable[str] = ()) -> bool:
        """Whether this reader may add, replace or delete documents owned by `owner`.

        Their own documents, and any (public ones too) when they or one of their groups is named
        in `admins`. The anonymous reader owns nothing.
        """
        if self.everyone:
            return True
        named = {a for a in admins if a}
        if self.user and (self.user in named or self.named_groups() & named):
            return True
        return bool(self.user) and owner == self.user

    def named_groups(self) -> set[str]:
        """Return the reader's groups, never an empty name (which no document may match)."""
        return {g for g in self.groups if g}


def access_metadata(owner: str = PUBLIC, groups: Iterable[str] = ()) -> dict[str, Any]:
    """Return the metadata an ingested chunk carries for `owner` and `groups` (names checked)."""
    meta: dict[str, Any] = {OWNER: check_name("owner", owner) if owner else PUBLIC}
    named = sorted({check_name("group", g) for g in groups if g})
    if named:
        meta[GROUPS] = named
    return meta
