"""Who is asking, for `langgraph dev` and LangGraph Server: signed tokens in, owners on threads.

`langgraph.json` names `auth` below. With ADAPTIVE_RAG_AUTH_SECRET (HS256) or
ADAPTIVE_RAG_AUTH_JWKS_URL (an identity provider's keys) set, every request needs a valid
`Authorization: Bearer <JWT>`: `sub` is the user, the groups claim their groups, and retrieval,
the answer cache and threads are scoped to them. With neither set the server is open, and
every caller is the anonymous reader: public documents only, whatever a request claims.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import jwt
from adaptive_rag.core.access import check_name
from langgraph_sdk import Auth

auth = Auth()

ANONYMOUS = "anonymous"
OWNER_KEY = "owner"
"""Thread, run, cron and assistant metadata key naming who created it."""


@lru_cache(maxsize=4)
def _jwks(url: str) -> jwt.PyJWKClient:
    """Return one key client per URL (it caches the provider's keys itself)."""
    return jwt.PyJWKClient(url, cache_keys=True)


def verify(token: str) -> dict[str, Any]:
    """Return a token's claims if its signature, expiry, audience and issuer hold; else raise."""
    secret = os.environ.get("ADAPTIVE_RAG_AUTH_SECRET", "")
    jwks_url = os.environ.get("ADAPTIVE_RAG_AUTH_JWKS_URL", "")
    audience = os.environ.get("ADAPTIVE_RAG_AUTH_AUDIENCE") or None
    issuer = os.environ.get("ADAPTIVE_RAG_AUTH_ISSUER") or None
    if jwks_url:
        key: Any = _jwks(jwks_url).get_signing_key_from_jwt(token).key
        algorithms = ["RS256", "ES256", "PS256"]
    else:
        key, algorithms = secret, ["HS256"]
    return dict(
        jwt.decode(
            token,
            key,
            algorithms=algorithms,
            audience=audience,
            issuer=issuer,
            options={"require": ["sub", "exp"], "verify_aud": audience is not None},
        )
    )


def enabled() -> bool:
    """Whether the server asks for tokens (a secret or a key URL is configured)."""
    return bool(
        os.environ.get("ADAPTIVE_RAG_AUTH_SECRET") or os.environ.get("ADAPTIVE_RAG_AUTH_JWKS_URL")
    )


@auth.authenticate
async def authenticate(authorization: str | Mapping[str, Any] | None) -> dict[str, Any]:
    """Turn the bearer token into the reader; 401 without a valid one when auth is on.

    langgraph-api passes the Authorization header by this parameter's name; Aegra passes the
    request's headers (lower-case names) as the first argument.
    """
    if not enabled():
        return {"identity": ANONYMOUS, "reader": "", "groups": []}
    if isinstance(authorization, Mapping):
        authorization = str(authorization.get("authorization") or "")
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Auth.exceptions.HTTPException(status_code=401, detail="a bearer token is required")
    try:
        claims = verify(token.strip())
    except jwt.PyJWTError as exc:
        raise Auth.exceptions.HTTPException(
            status_code=401, detail=f"invalid token: {type(exc).__name__}"
        ) from exc
    try:
        user = check_name("user", str(claims["sub"]))
    except ValueError as exc:
        raise Auth.exceptions.HTTPException(
            status_code=401, detail=f"invalid token: {exc}"
        ) from exc
    groups = claims.get(os.environ.get("ADAPTIVE_RAG_AUTH_GROUPS_CLAIM") or "groups") or []
    if isinstance(groups, str):
        groups = [groups]
    named = [str(g) for g in groups if isinstance(g, str | int) and _is_name(str(g))]
    return {"identity": user, "reader": user, "groups": named}


def _is_name(value: str) -> bool:
    """Whether a group name from a token can be matched (others are dropped, not guessed at)."""
    try:
        check_name("group", value)
    except ValueError:
        return False
    return True


@auth.on.threads
async def own_threads(ctx: Auth.types.AuthContext, value: Any) -> Auth.types.FilterType:
    """Keep threads (their runs, state and history) to who created them."""
    return _owned(ctx, value)


@auth.on.crons
async def own_crons(ctx: Auth.types.AuthContext, value: Any) -> Auth.types.FilterType:
    """Keep scheduled runs to who created them."""
    return _owned(ctx, value)


@auth.on.assistants
async def assistants(ctx: Auth.types.AuthContext, value: Any) -> Auth.types.FilterType | bool:
    """Let everyone read assistants (the graph's own is the system's); change only one's own."""
    if ctx.action in ("read", "search"):
        return True
    return _owned(ctx, value)


@auth.on.store
async def own_namespace(ctx: Auth.types.AuthContext, value: Any) -> bool:
    """Let the long-term store be used only under the caller's own namespace."""
    namespace = tuple(value.get("namespace") or ())
    if not namespace or namespace[0] != ctx.user.identity:
        raise Auth.exceptions.HTTPException(status_code=403, detail="not your namespace")
    return True


def _owned(ctx: Auth.types.AuthContext, value: Any) -> Auth.types.FilterType:
    """Stamp the owner on what is created; filter everything else to the caller's own."""
    if ctx.action in ("create", "create_run") and isinstance(value, dict):
        if value.get("metadata") is None:
            value["metadata"] = {}
        value["metadata"][OWNER_KEY] = ctx.user.identity  # in place: the server keeps this dict
    return {OWNER_KEY: ctx.user.identity}
