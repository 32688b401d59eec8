"""The server's authentication: which tokens make a reader, and which are refused with a 401."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import jwt
import pytest
from adaptive_rag import auth
from cryptography.hazmat.primitives.asymmetric import rsa
from langgraph_sdk import Auth
from servers import http_server

SECRET = "unit-test-secret-0123456789abcdef0123"


def login(header: str | None) -> dict[str, Any]:
    return asyncio.run(auth.authenticate(header))


def signed(
    claims: dict[str, Any], key: Any = SECRET, algorithm: str = "HS256", **headers: Any
) -> str:
    return "Bearer " + jwt.encode(
        {"exp": int(time.time()) + 60, **claims}, key, algorithm, headers=headers or None
    )


def test_open_until_configured_and_then_anonymous_reads_public_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("ADAPTIVE_RAG_AUTH_SECRET", raising=False)
    monkeypatch.delenv("ADAPTIVE_RAG_AUTH_JWKS_URL", raising=False)
    user = login(signed({"sub": "bob"}))  # a token means nothing while auth is off
    assert user == {"identity": "anonymous", "reader": "", "groups": []}


@pytest.mark.parametrize(
    "header",
    [
        None,
        "",
        "Bearer ",
        "Basic Ym9iOmJvYg==",
        "Bearer not.a.jwt",
        signed({"sub": "bob"}, key="another-secret-0123456789abcdef0123"),
        signed({"sub": "bob", "exp": int(time.time()) - 60}),
        signed({"groups": ["fin"]}),  # no sub
        signed({"sub": "bob,alice"}),  # not a name a reader can have
    ],
)
def test_a_missing_forged_expired_or_malformed_token_is_a_401(
    monkeypatch: pytest.MonkeyPatch, header: str | None
) -> None:
    monkeypatch.setenv("ADAPTIVE_RAG_AUTH_SECRET", SECRET)
    with pytest.raises(Auth.exceptions.HTTPException) as refused:
        login(header)
    assert refused.value.status_code == 401


def test_a_valid_token_makes_its_subject_the_reader_with_its_groups(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ADAPTIVE_RAG_AUTH_SECRET", SECRET)
    monkeypatch.setenv("ADAPTIVE_RAG_AUTH_GROUPS_CLAIM", "roles")
    user = login(signed({"sub": "auth0|42", "roles": ["fin", "a,b", " ", 7]}))
    assert user == {"identity": "auth0|42", "reader": "auth0|42", "groups": ["fin", "7"]}


def test_audience_and_issuer_are_required_when_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADAPTIVE_RAG_AUTH_SECRET", SECRET)
    monkeypatch.setenv("ADAPTIVE_RAG_AUTH_AUDIENCE", "adaptive-rag")
    monkeypatch.setenv("ADAPTIVE_RAG_AUTH_ISSUER", "https://idp.example")
    good = {"sub": "bob", "aud": "adaptive-rag", "iss": "https://idp.example"}
    assert login(signed(good))["reader"] == "bob"
    for bad in ({**good, "aud": "other"}, {**good, "iss": "https://evil.example"}):
        with pytest.raises(Auth.exceptions.HTTPException):
            login(signed(bad))


def test_an_identity_providers_keys_verify_rs256_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key()))
    jwks = json.dumps({"keys": [{**jwk, "kid": "k1", "use": "sig", "alg": "RS256"}]}).encode()
    with http_server(lambda path, body, headers: (200, jwks)) as url:
        monkeypatch.delenv("ADAPTIVE_RAG_AUTH_SECRET", raising=False)
        monkeypatch.setenv("ADAPTIVE_RAG_AUTH_JWKS_URL", f"{url}/.well-known/jwks.json")
        assert login(signed({"sub": "carol"}, key, "RS256", kid="k1"))["reader"] == "carol"
        other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        with pytest.raises(Auth.exceptions.HTTPException):
            login(signed({"sub": "carol"}, other, "RS256", kid="k1"))


def test_aegra_passes_the_headers_and_the_same_token_makes_the_same_reader(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ADAPTIVE_RAG_AUTH_SECRET", SECRET)
    token = signed({"sub": "alice", "groups": ["hr"]})
    by_header = login(token)
    by_headers = asyncio.run(auth.authenticate({"authorization": token, "host": "x"}))
    assert by_headers == by_header == {"identity": "alice", "reader": "alice", "groups": ["hr"]}
    with pytest.raises(Auth.exceptions.HTTPException) as refused:
        asyncio.run(auth.authenticate({"host": "x"}))  # no Authorization header among them
    assert refused.value.status_code == 401
