"""Build hotpot_pool from a HotpotQA dev (distractor) file: the questions and their pooled passages.

    python benchmarks/sets/hotpot_pool/build.py HOTPOT_DEV_DISTRACTOR.json

Reads every complete question of the file (a cut-off file keeps its whole questions), pools the
ten passages each comes with (two gold, eight distractors) into one corpus of distinct titles,
and writes `hotpot_pool.jsonl` (the questions) and `corpus.jsonl` beside this script.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def complete_questions(text: str) -> list[dict[str, Any]]:
    """Return the whole question objects of a JSON array, stopping at the first cut-off one."""
    decoder = json.JSONDecoder()
    found: list[dict[str, Any]] = []
    at = text.index("[") + 1
    while True:
        while at < len(text) and text[at] in ", \n\r\t":
            at += 1
        try:
            question, at = decoder.raw_decode(text, at)
        except json.JSONDecodeError:
            return found
        found.append(question)


def doc_id(title: str) -> str:
    """Return a passage's id, made from its title."""
    return "hp_" + hashlib.sha1(title.encode()).hexdigest()[:10]


def build(source: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return the questions and the pooled corpus (title first in each passage's text)."""
    questions, corpus = [], {}
    for item in complete_questions(source.read_text(encoding="utf-8")):
        for title, sentences in item["context"]:
            corpus.setdefault(
                title,
                {"doc_id": doc_id(title), "title": title, "text": "".join(sentences).strip()},
            )
        gold = list(dict.fromkeys(title for title, _ in item["supporting_facts"]))
        questions.append(
            {
                "id": item["_id"],
                "question": item["question"],
                "answers": [item["answer"]],
                "gold_doc_ids": [doc_id(t) for t in gold],
                "is_impossible": False,
                "question_type": item["type"],
            }
        )
    return questions, list(corpus.values())


def main() -> None:
    """Write the set beside this script."""
    questions, corpus = build(Path(sys.argv[1]))
    for name, rows in (("hotpot_pool.jsonl", questions), ("corpus.jsonl", corpus)):
        with (HERE / name).open("w", encoding="utf-8") as out:
            for row in rows:
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{len(questions)} questions, {len(corpus)} passages")


if __name__ == "__main__":
    main()
