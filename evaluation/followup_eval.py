"""Follow-ups in English and Chinese: does the rewrite carry what the follow-up points at?"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adaptive_rag.evaluation.data import read_jsonl
from adaptive_rag.nodes.rewrite_with_history import rewrite_with_history
from adaptive_rag.schema.context import Context
from adaptive_rag.services import Services
from langchain_core.messages import AIMessage, HumanMessage

FOLLOWUPS = Path(__file__).resolve().parent / "followups" / "followups.jsonl"
"""30 short dialogues per language, written for this check: history, follow-up, referent."""


def names_referent(text: str, referent: list[str]) -> bool:
    """Whether any name of the referent appears in the text (case and spaces ignored)."""
    folded = text.casefold().replace(" ", "")
    return any(name.casefold().replace(" ", "") in folded for name in referent)


def run_followups(
    services: Services, path: Path = FOLLOWUPS, progress: bool = True
) -> dict[str, Any]:
    """Rewrite every follow-up; count per language how often the referent is in the rewrite."""
    from tqdm import tqdm

    rows = read_jsonl(path)
    ctx = Context(history_turns=3)
    per: dict[str, dict[str, int]] = {}
    misses: list[dict[str, str]] = []
    for row in tqdm(rows, desc="follow-ups", disable=not progress):
        question, answer = row["history"]
        state: Any = {
            "query": row["question"],
            "messages": [HumanMessage(question), AIMessage(answer), HumanMessage(row["question"])],
        }
        rewritten = rewrite_with_history(state, ctx, services).get("standalone", "")
        counts = per.setdefault(row["language"], {"n": 0, "rewrite": 0, "raw": 0})
        counts["n"] += 1
        counts["raw"] += names_referent(row["question"], row["referent"])
        if names_referent(rewritten, row["referent"]):
            counts["rewrite"] += 1
        else:
            misses.append({"id": row["id"], "follow_up": row["question"], "rewrite": rewritten})
    return {
        "languages": [
            {
                "language": lang,
                "n": c["n"],
                "referent_in_rewrite": round(c["rewrite"] / c["n"], 3),
                "referent_in_raw_follow_up": round(c["raw"] / c["n"], 3),
            }
            for lang, c in sorted(per.items())
        ],
        "misses": misses,
    }
