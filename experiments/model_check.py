"""The prompted self-check the grounding rules replaced, kept as their baseline.

    python experiments/model_check.py eval-out/skip/squad2 eval-out/skip/multihop_rag --limit 120

It asks the chat model whether an answer is grounded in its sources and answers the question
(Self-RAG's critique as a prompt), runs it and the rules on the same answers of `eval run`
folders, the graph's own notes set aside, and reports how often each flags wrong answers and
right ones (docs/decisions.md#the-self-check-is-by-rules-not-a-model). The verdicts are kept in
`--out`; a rerun resumes and reuses the model's.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from adaptive_rag.core.grounding import check
from adaptive_rag.evaluation.data import read_jsonl
from adaptive_rag.evaluation.scoring import answer_text
from adaptive_rag.evaluation.tables import table
from adaptive_rag.nodes.self_check import answer_body
from adaptive_rag.prompts.answer_general import LABEL as GENERAL_KNOWLEDGE_NOTE
from adaptive_rag.prompts.generate import (
    DIRECT_NOTE,
    UNVERIFIED_NOTE,
    WEB_UNAVAILABLE_NOTE,
)
from adaptive_rag.prompts.reading import PREAMBLE
from adaptive_rag.providers.calls import call_model, parse_json
from adaptive_rag.schema.context import Context
from adaptive_rag.services import Services
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel
from run_folders import run_folder

TASK = """Task: check the answer below against the sources above.
grounded: true if the facts in the answer are stated in the sources (short answers are fine).
answers_question: true if the answer gives what the question asks for.
feedback: if either is false, one short sentence on what is wrong; else "".
Question: {question}
Answer: {answer}
Reply with JSON only: {{"grounded": true, "answers_question": true, "feedback": ""}}"""


class Verdict(BaseModel):
    """The prompted checker's reply."""

    grounded: bool
    answers_question: bool
    feedback: str = ""


def _sources_block(texts: list[str]) -> str:
    """Lay the sources out as the graph's reading prompt does (title line, then text)."""
    blocks = []
    for n, text in enumerate(texts, start=1):
        title, _, body = text.partition("\n")
        blocks.append(f'<source id="{n}" title="{title}">\n{body}\n</source>')
    return "\n\n".join(blocks)


def model_verdict(question: str, answer: str, sources: list[str], services: Services) -> Any:
    """Ask the chat model the prompted self-check's question (the baseline); None if unreadable."""
    task = TASK.format(question=question, answer=answer)
    messages = [SystemMessage(PREAMBLE), HumanMessage(f"{_sources_block(sources)}\n\n{task}")]
    started = time.perf_counter()
    try:
        verdict: Verdict | None = parse_json(
            call_model(services.fast(Context()), messages, Verdict).text, Verdict
        )
    except Exception:  # an unreadable reply gives no verdict
        verdict = None
    return verdict, time.perf_counter() - started


def checkable(record: dict[str, Any]) -> bool:
    """Whether a run wrote an answer from sources that a check can read."""
    return (
        record["config"] == "adaptive"
        and not record["declined"]
        and bool(record.get("sources_read"))
        and bool(record.get("answer"))
    )


def _note_pattern(template: str) -> re.Pattern[str]:
    """Match a note template, its {reason} standing for any text."""
    return re.compile(re.escape(template).replace(re.escape("{reason}"), ".+"))


_NOTES = tuple(
    _note_pattern(text)
    for text in (
        *UNVERIFIED_NOTE.values(),
        *GENERAL_KNOWLEDGE_NOTE.values(),
        *WEB_UNAVAILABLE_NOTE.values(),
        *DIRECT_NOTE.values(),
    )
)
"""The notes the graph puts around an answer, for runs recorded before notices were kept."""


def notices_of(record: dict[str, Any]) -> list[str]:
    """Return the notices around a recorded answer: as recorded, or its blocks that are notes."""
    if "notices" in record:
        return list(record["notices"])
    blocks = str(record["answer"]).split("\n\n")
    return [b for b in blocks if any(p.fullmatch(b.strip()) for p in _NOTES)]


def check_one(
    record: dict[str, Any], prior: dict[str, Any] | None, services: Services | None
) -> dict[str, Any]:
    """Check one recorded answer by rules and by the prompted model, its notices set aside.

    The rules read the answer as self_check does (its citations kept); the prompted check gets
    the answer's words alone. A prior verdict of the model on the same words is reused; with no
    services the model is not asked (its verdict is None).
    """
    notices = notices_of(record)
    shown = answer_text(record["answer"], notices).strip()
    sources = list(record["sources_read"])
    started = time.perf_counter()
    rules = check(answer_body(record["answer"], notices), sources, record["question"])
    rule_ms = 1000 * (time.perf_counter() - started)
    if prior and prior.get("checked", answer_text(record["answer"], []).strip()) == shown:
        flagged, seconds = prior["model_flagged"], prior["model_seconds"]
    elif services is None:
        flagged, seconds = None, 0.0
    else:
        verdict, seconds = model_verdict(record["question"], shown, sources, services)
        flagged = None if verdict is None else not (verdict.grounded and verdict.answers_question)
    return {
        "dataset": record["dataset"],
        "id": record["id"],
        "right": bool(record["acc"] >= 0.5 and not record["impossible"]),
        "impossible": bool(record["impossible"]),
        "checked": shown,
        "rule_flagged": not rules.grounded,
        "rule_ms": round(rule_ms, 2),
        "model_flagged": flagged,
        "model_seconds": round(seconds, 2),
    }


def compare_checks(
    run_dirs: list[Path],
    out: Path,
    limit: int,
    services: Services | None = None,
    model: bool = True,
) -> dict[str, Any]:
    """Check the same answers by rules and by the prompted model; rates per answer kind.

    Rows are appended as answers are checked (a rerun resumes and reuses the model's verdicts),
    then the file is rewritten with one row per answer. With `model` False only the rules check.
    """
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {(r["dataset"], r["id"]): r for r in read_jsonl(out)} if out.exists() else {}
    records = [r for d in run_dirs for r in read_jsonl(d / "results.jsonl") if checkable(r)]
    services = (services or Services(no_web=True)) if model else None
    checked: dict[tuple[str, str], dict[str, Any]] = {}
    with out.open("a", encoding="utf-8") as sink:
        for record in records[:limit]:
            key = (record["dataset"], record["id"])
            if key in checked:
                continue
            checked[key] = row = check_one(record, done.get(key), services)
            if row != done.get(key):
                sink.write(json.dumps(row, ensure_ascii=False) + "\n")
                sink.flush()
    with out.open("w", encoding="utf-8") as sink:
        sink.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in checked.values())
    return check_rates(list(checked.values()))


def check_rates(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Share of wrong and of right answers each check flags (answerable questions only)."""

    def share(kind: list[dict[str, Any]], flag: str) -> float | None:
        read = [r for r in kind if r[flag] is not None]
        return round(sum(bool(r[flag]) for r in read) / len(read), 3) if read else None

    asked = [r["model_seconds"] for r in rows if r["model_seconds"] > 0]
    answerable = [r for r in rows if not r["impossible"]]
    wrong = [r for r in answerable if not r["right"]]
    right = [r for r in answerable if r["right"]]
    return {
        "answers": len(rows),
        "answerable_right": len(right),
        "answerable_wrong": len(wrong),
        "impossible": len(rows) - len(answerable),
        "rule_flags_wrong": share(wrong, "rule_flagged"),
        "rule_flags_right": share(right, "rule_flagged"),
        "model_flags_wrong": share(wrong, "model_flagged"),
        "model_flags_right": share(right, "model_flagged"),
        "model_unreadable": sum(r["model_flagged"] is None for r in rows if r["model_seconds"] > 0),
        "rule_ms_median": statistics.median([r["rule_ms"] for r in rows]) if rows else None,
        "model_seconds_median": statistics.median(asked) if asked else None,
    }


def main(argv: list[str] | None = None) -> int:
    """Check the runs' answers both ways and print the rates."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=run_folder, help="`eval run` folders to check")
    parser.add_argument(
        "--limit", type=int, default=120, help="answers to check (the prompted check is slow)"
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("eval-out/checks/verdicts.jsonl"),
        help="where the verdicts are kept (reruns resume)",
    )
    parser.add_argument(
        "--rules-only",
        action="store_true",
        help="the rules alone: no model call, the model's column left empty",
    )
    args = parser.parse_args(argv)
    print(table([compare_checks(args.runs, args.out, args.limit, model=not args.rules_only)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
