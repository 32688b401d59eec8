"""Bind a node to the graph's services, in a runnable that stops a cancelled run's model calls.

This is the only module that uses LangGraph's private `RunnableCallable` (langgraph-prebuilt uses
it the same way): the one runnable LangGraph builds a node from that takes a sync function and its
async twin and hands each the run's `Runtime`. tests/graph/test_binding.py fails when LangGraph
moves or changes it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

from adaptive_rag.core.cancel import watched
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.run_context import run_context
from adaptive_rag.schema.updates import Update
from adaptive_rag.services import Services
from langchain_core.runnables.config import run_in_executor
from langgraph._internal._runnable import RunnableCallable
from langgraph.runtime import Runtime

Node = Callable[[Any, Context, Services], Update]
"""A node: its state, the run's Context and the graph's services in; its update out."""


def bind(node: Node, services: Services) -> RunnableCallable:
    """Give a node the run's Context and the graph's services; stop a cancelled run's calls.

    The Context is the one the run was given, read as schema.run_context reads it (the signed-in
    user as the asker; a RefusedContext when the one passed is invalid, which intake answers).
    Each run of a node is recorded in `steps` under the node's name (a node that writes `steps`
    itself, as intake and finalize do, says what is recorded). LangGraph runs a sync node of an
    async run in a worker thread, which a cancelled run (`runs.cancel`, a client gone) would
    leave writing; the async half tells that thread to stop.
    """

    def run(state: Any, runtime: Runtime[Context]) -> Update:
        update = node(state, run_context(runtime), services)
        update.setdefault("steps", node.__name__)
        return update

    async def arun(state: Any, runtime: Runtime[Context]) -> Update:
        stop = threading.Event()
        try:
            return await run_in_executor(None, watched(stop, run), state, runtime)
        except asyncio.CancelledError:
            stop.set()  # the thread's next token (or model call) raises RunCancelled
            raise

    run.__doc__ = arun.__doc__ = node.__doc__
    return RunnableCallable(run, arun, name=node.__name__, trace=False)
