"""The access rule: public, own and shared documents only; names checked."""

from __future__ import annotations

import pytest
from adaptive_rag.core.access import Reader, access_metadata, check_name
from readers import DOCS, READERS

EXPECTED = {
    Reader(): {"public"},
    Reader("alice"): {"public", "alice"},
    Reader("bob", ("fin",)): {"public", "bob", "fin"},
    Reader("mallory", ("hr",)): {"public"},
}


@pytest.mark.parametrize("reader", READERS, ids=str)
def test_a_reader_sees_public_own_and_shared_documents_only(reader: Reader) -> None:
    assert {name for name, meta in DOCS.items() if reader.may_read(meta)} == EXPECTED[reader]


def test_an_anonymous_reader_cannot_claim_the_empty_owner_by_groups() -> None:
    assert not Reader("", ("",)).may_read({"owner": "carol", "groups": [""]})
    assert Reader.of("", ["", " "]).groups == ()


@pytest.mark.parametrize("bad", ["", " alice", "a,b", "tab\there", "x" * 300])
def test_malformed_names_are_refused_with_what_is_allowed(bad: str) -> None:
    with pytest.raises(ValueError, match="no comma"):
        check_name("owner", bad)


def test_identity_provider_names_are_accepted() -> None:
    for name in ("auth0|64f1c2", "alice@example.com", "tenant:acme", "用户甲"):
        assert check_name("user", name) == name
    assert access_metadata("alice", ["b", "a", "a"]) == {"owner": "alice", "groups": ["a", "b"]}
    assert access_metadata() == {"owner": ""}
