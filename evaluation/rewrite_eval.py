"""Follow-up rewriting on CANARD: token F1 against the gold rewrite, and retrieval agreement."""

from __future__ import annotations

from typing import Any

from adaptive_rag.core.access import Reader, access_metadata
from adaptive_rag.evaluation.metrics import f1
from adaptive_rag.evaluation.sets import canard_rows, pick
from adaptive_rag.knowledge.chroma.derived import DerivedIndex
from adaptive_rag.nodes.rewrite_with_history import rewrite_with_history
from adaptive_rag.schema.context import Context
from adaptive_rag.services import Services
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage


def to_messages(history: list[str], question: str) -> list[BaseMessage]:
    """CANARD history alternates user and assistant turns, ending before the follow-up."""
    messages: list[BaseMessage] = []
    for i, text in enumerate(history):
        from_user = (len(history) - i) % 2 == 0  # the turn before the follow-up is the assistant's
        messages.append(HumanMessage(text) if from_user else AIMessage(text))
    messages.append(HumanMessage(question))
    return messages


def run_rewrite(
    services: Services, limit: int = 50, sample: bool = True, seed: int = 13, progress: bool = True
) -> dict[str, Any]:
    """Rewrite each follow-up; score it and the raw follow-up against the gold rewrite."""
    from tqdm import tqdm

    rows = pick(canard_rows(), limit, sample, seed)
    # a corpus of every assistant turn in the sample: what a follow-up would be searched against
    passages = list(dict.fromkeys(t for r in rows for t in r["history"][3::2] if len(t) > 40))
    public = [access_metadata() for _ in passages]
    index = DerivedIndex.build([str(i) for i in range(len(passages))], passages, "canard", public)
    ctx = Context(history_turns=3)
    scores: dict[str, list[float]] = {
        "f1_rewrite": [],
        "f1_raw": [],
        "agree_rewrite": [],
        "agree_raw": [],
    }
    for row in tqdm(rows, desc="canard", disable=not progress):
        state: Any = {
            "query": row["question"],
            "messages": to_messages(row["history"], row["question"]),
        }
        update = rewrite_with_history(state, ctx, services)
        rewritten = update.get("standalone", row["question"])
        scores["f1_rewrite"].append(f1(rewritten, [row["rewrite"]]))
        scores["f1_raw"].append(f1(row["question"], [row["rewrite"]]))
        reference = {cid for cid, _ in index.search(row["rewrite"], 3, Reader())}
        if reference:
            scores["agree_rewrite"].append(_overlap(index, rewritten, reference))
            scores["agree_raw"].append(_overlap(index, row["question"], reference))
    return {
        "n": len(rows),
        **{k: round(sum(v) / len(v), 3) if v else 0.0 for k, v in scores.items()},
    }


def _overlap(index: DerivedIndex, query: str, reference: set[str]) -> float:
    """Share of the gold rewrite's top-3 passages that this query also finds in its top 3."""
    found = {cid for cid, _ in index.search(query, 3, Reader())}
    return len(found & reference) / len(reference)
