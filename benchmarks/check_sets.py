"""Check a hand-written multi-hop set against its corpus before anyone measures with it.

Usage: python3 benchmarks/check_sets.py QUESTIONS.jsonl --corpus CORPUS.jsonl [--disjoint]

Errors (exit status 1): a missing field, a duplicate id or question, a gold document the corpus
does not have, an answer string not written in any gold document's text, a bridge question
whose last document names the question's entity or whose first document already holds the
answer, a comparison whose two entities share a gold document. Entity checks read a document's
title with its text, since retrieval indexes both. Warnings (listed, not fatal): a bridge entity
not written as such in both documents it links (a spelling variant, on purpose or not).

With --disjoint, a bridge question's last document must also share no content word (English)
and no character bigram (Chinese) with the question, so that search on the question alone
tends to miss it (the test fixtures hold to this). Standard library only: any Python 3.11 runs it.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

TYPES = ("bridge", "comparison")
STOP = set(
    "a an and are as at be by did do does for from had has have he her his how in into is it its"
    " of on or she that the their them then there they this to was were what when where which"
    " who whom whose why with".split()
)
CJK_FUNCTION = set("的了是在和与哪个什么吗呢")
REQUIRED = ("id", "question", "answers", "gold_doc_ids", "is_impossible", "question_type")


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Return the rows of a JSONL file."""
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def normalise(text: str) -> str:
    """Return text lower-cased with punctuation and spacing removed (to spot duplicates)."""
    return re.sub(r"[\W_]+", "", text.lower())


def has(doc: str, needle: str) -> bool:
    """Return whether the document writes the needle (case-insensitive)."""
    return needle.lower() in doc.lower()


def content_units(text: str) -> set[str]:
    """Return a text's English content words and Chinese character bigrams (lower-cased)."""
    words = {w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP and len(w) > 1}
    bigrams = {
        run[i : i + 2]
        for run in re.findall(r"[\u4e00-\u9fff]+", text)
        for i in range(len(run) - 1)
        if not set(run[i : i + 2]) & CJK_FUNCTION
    }
    return words | bigrams


def check_row(
    row: dict[str, Any], docs: dict[str, str], titles: dict[str, str], disjoint: bool = False
) -> tuple[list[str], list[str]]:
    """Return the errors and warnings for one question."""
    errors: list[str] = []
    warnings: list[str] = []
    missing = [k for k in REQUIRED if k not in row]
    if missing:
        return [f"missing fields {missing}"], []
    kind = row["question_type"]
    if kind not in TYPES:
        errors.append(f"question_type {kind!r} is not one of {TYPES}")
    gold = row["gold_doc_ids"]
    unknown = [d for d in gold if d not in docs]
    if unknown:
        return [*errors, f"gold documents not in the corpus: {unknown}"], []
    if len(gold) < 2 or len(set(gold)) != len(gold):
        errors.append("a multi-hop question needs two or more distinct gold documents")
    texts = [docs[d] for d in gold]
    indexed = [f"{titles[d]}\n{docs[d]}" for d in gold]
    answers = row["answers"]
    if not answers:
        errors.append("no answers")
    for answer in answers:
        if not any(answer in t for t in texts):
            errors.append(f"answer {answer!r} is not written in any gold document")
    if kind == "bridge":
        errors += check_bridge(row, texts, indexed, warnings)
        shared = content_units(row["question"]) & content_units(indexed[-1])
        if disjoint and shared:
            errors.append(
                f"the last gold document shares words with the question: {sorted(shared)}"
            )
    elif kind == "comparison":
        errors += check_comparison(row, indexed)
    return errors, warnings


def check_bridge(
    row: dict[str, Any], texts: list[str], indexed: list[str], warnings: list[str]
) -> list[str]:
    """Return a bridge question's errors; append spelling variants of its bridge to warnings."""
    errors = []
    anchor = row.get("question_entity", "")
    bridge = row.get("bridge_entity", "")
    if not anchor or not bridge:
        return ["a bridge question needs question_entity and bridge_entity"]
    if anchor.lower() not in row["question"].lower():
        errors.append(f"question_entity {anchor!r} is not in the question")
    if not has(indexed[0], anchor):
        errors.append(f"question_entity {anchor!r} is not in the first gold document")
    if has(indexed[-1], anchor):
        errors.append(f"the last gold document names the question's entity {anchor!r}")
    if not any(a in texts[-1] for a in row["answers"]):
        errors.append("no answer string is in the last gold document (the final hop)")
    if any(a in texts[0] for a in row["answers"]):
        errors.append("an answer string is already in the first gold document")
    if bridge.lower() in row["question"].lower():
        errors.append(f"the question names its bridge entity {bridge!r}")
    links = [b.strip() for b in bridge.split("→")]
    if len(links) != len(texts) - 1:
        errors.append(f"{len(links)} bridge entities for {len(texts)} documents (one per link)")
    for i, link in enumerate(links[: len(texts) - 1]):
        written = [has(indexed[i], link), has(indexed[i + 1], link)]
        if not all(written):
            hops = " and ".join(str(i + j + 1) for j in (0, 1) if not written[j])
            warnings.append(f"bridge {link!r} is not written as such in document {hops}")
    return errors


def check_comparison(row: dict[str, Any], texts: list[str]) -> list[str]:
    """Return a comparison question's errors: each entity in its own gold document."""
    entities = row.get("compared_entities", [])
    if len(entities) != 2:
        return ["a comparison question needs two compared_entities"]
    errors = []
    for entity in entities:
        if not any(has(t, entity) for t in texts):
            errors.append(f"compared entity {entity!r} is in no gold document")
    if any(
        mentions(t, entities[0], entities[1]) and mentions(t, entities[1], entities[0])
        for t in texts
    ):
        errors.append("one gold document names both compared entities")
    return errors


def mentions(text: str, entity: str, other: str) -> bool:
    """Return whether the text names the entity outside mentions of the other (镜湖, 明镜湖)."""
    if entity.lower() in other.lower():
        text = re.sub(re.escape(other), "", text, flags=re.IGNORECASE)
    return has(text, entity)


def main(argv: list[str] | None = None) -> int:
    """Check the set; write a report; return 1 on any error."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("questions", type=Path)
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument(
        "--disjoint",
        action="store_true",
        help="bridge documents must share no content word or bigram with the question",
    )
    args = parser.parse_args(argv)
    corpus = read_jsonl(args.corpus)
    docs = {str(d["doc_id"]): str(d["text"]) for d in corpus}
    titles = {str(d["doc_id"]): str(d.get("title") or "") for d in corpus}
    rows = read_jsonl(args.questions)
    out = sys.stdout
    n_errors = 0
    n_warnings = 0
    n_disjoint = 0
    ids = Counter(str(r.get("id")) for r in rows)
    questions = Counter(normalise(str(r.get("question", ""))) for r in rows)
    for row in rows:
        errors, warnings = check_row(row, docs, titles, args.disjoint)
        last = row.get("gold_doc_ids", [""])[-1]
        if row.get("question_type") == "bridge" and last in docs:
            unseen = content_units(row["question"]) & content_units(f"{titles[last]}\n{docs[last]}")
            n_disjoint += not unseen
        if ids[str(row.get("id"))] > 1:
            errors.append("duplicate id")
        if questions[normalise(str(row.get("question", "")))] > 1:
            errors.append("duplicate question")
        for e in errors:
            out.write(f"ERROR {row.get('id')}: {e}\n")
        for w in warnings:
            out.write(f"warn  {row.get('id')}: {w}\n")
        n_errors += len(errors)
        n_warnings += len(warnings)
    kinds = Counter(str(r.get("question_type")) for r in rows)
    bridges = kinds.get("bridge", 0)
    hops = Counter(len(r.get("gold_doc_ids", [])) for r in rows)
    used = {d for r in rows for d in r.get("gold_doc_ids", [])}
    out.write(
        f"{args.questions}: {len(rows)} questions {dict(sorted(kinds.items()))}, gold documents"
        f" per question {dict(sorted(hops.items()))}, {len(used)} of {len(docs)} corpus documents"
        f" are gold; {n_disjoint} of {bridges} bridge questions share no content word or bigram"
        f" with their last document; {n_errors} errors, {n_warnings} warnings\n"
    )
    return 1 if n_errors else 0


if __name__ == "__main__":
    sys.exit(main())
