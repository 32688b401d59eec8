"""The run's Context as a node reads it, whatever a host or the server passed.

A host passes a `Context`, LangGraph Server a dict (or Context fields in `config.configurable`),
a parent graph its own context. On a server with authentication, who is asking comes from the
signed-in identity, never from the request.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from adaptive_rag.schema.context import Context, removed_problem
from adaptive_rag.schema.knowledge import KnowledgeContext
from langgraph.config import get_config
from langgraph.runtime import Runtime


@dataclass(kw_only=True)
class RefusedContext(Context):
    """The defaults, standing in for a run's context that failed validation.

    Intake answers the turn with `problem` (and nothing else runs); a node that reads it reads the
    defaults.
    """

    problem: str = ""


def run_context(runtime: Runtime[Any] | None) -> Context:
    """Return the run's Context, or a RefusedContext saying why the one passed is invalid."""
    try:
        return context_of(runtime)
    except (TypeError, ValueError) as exc:  # the same words as the HTTP layer's 422
        return RefusedContext(problem=f"context: {exc}")


def context_of(runtime: Runtime[Any] | None) -> Context:
    """Return the run's Context, with the signed-in identity as the asker on a server."""
    try:
        configurable = get_config().get("configurable") or {}
    except RuntimeError:  # called outside a run
        configurable = {}
    ctx = runtime.context if runtime is not None else None
    if isinstance(ctx, dict):
        ctx = _from_mapping(ctx)
    elif not isinstance(ctx, Context):
        # None, or a parent graph's own context (embedded as a subgraph): Context fields set in
        # config.configurable apply, as LangGraph Server applies them (invalid ones raise)
        ctx = _from_mapping(configurable)
    claims = signed_in(runtime, configurable)
    if claims is None:
        return ctx
    user = claims.get("reader", claims.get("identity", ""))
    groups = claims.get("groups") or []
    return replace(ctx, user=str(user), groups=",".join(str(g) for g in groups))


def knowledge_context_of(
    runtime: Runtime[Any] | None,
) -> tuple[KnowledgeContext, dict[str, Any] | None]:
    """Return the knowledge graph's settings, as the signed-in user on a server, and the claims.

    The claims are None when no server stands between the caller and the graph (a host's own
    process); on a server without authentication they name the anonymous reader.
    """
    try:
        configurable = get_config().get("configurable") or {}
    except RuntimeError:
        configurable = {}
    ctx = runtime.context if runtime is not None else None
    if not isinstance(ctx, KnowledgeContext):
        given = ctx if isinstance(ctx, dict) else configurable
        names = {f.name for f in fields(KnowledgeContext)}
        ctx = KnowledgeContext(**{key: value for key, value in given.items() if key in names})
    claims = signed_in(runtime, configurable)
    if claims is None:
        return ctx, None
    user = claims.get("reader", claims.get("identity", ""))
    groups = ",".join(str(g) for g in claims.get("groups") or [])
    return replace(ctx, user=str(user), groups=groups), claims


def _from_mapping(settings: dict[str, Any]) -> Context:
    """Build a Context from the Context fields of a mapping; a removed setting is refused."""
    removed = removed_problem(settings)
    if removed:
        raise ValueError(removed)
    names = {f.name for f in fields(Context)}
    return Context(**{key: value for key, value in settings.items() if key in names})


def signed_in(runtime: Runtime[Any] | None, configurable: dict[str, Any]) -> dict[str, Any] | None:
    """Return the signed-in user's claims on a server with authentication, else None."""
    info = getattr(runtime, "server_info", None)
    user = info.user if info is not None and info.user is not None else None
    user = user or configurable.get("langgraph_auth_user")
    if user is None:
        return None
    if isinstance(user, dict):
        return user
    if hasattr(user, "items"):  # langgraph-api's user proxy
        return dict(user.items())
    if hasattr(user, "model_dump"):  # Aegra's user model, its auth handler's fields as extras
        return dict(user.model_dump())
    return {"identity": getattr(user, "identity", "")}
