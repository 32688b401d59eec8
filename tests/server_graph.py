"""A graph over scripted fakes, for serving with `langgraph dev` in tests."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from adaptive_rag import Services, build_graph  # noqa: E402
from fakes import KeywordRetriever, ScriptedChatModel, kb_docs  # noqa: E402

graph = build_graph(
    services=Services(
        chat_model=ScriptedChatModel.with_script(
            rewrite="How long does the Zephyr X2 kettle take to boil?"
        ),
        retriever=KeywordRetriever(docs=kb_docs()),
        no_web=True,
    ),
    name="Adaptive RAG (scripted)",
)
