"""Build handbook.jsonl from questions.src.jsonl: check the records and draw the held-out third.

Standard library only, no model and no network; the same inputs give the same bytes. Each
(kind, language, asked) stratum gets `held_out: true` on round(n / 3) of its questions, drawn with
one `random.Random(74)` over the strata in a fixed order. `near` (the documents an unanswered
question is close to) stays in the source file and is not written out.

    python benchmarks/sets/handbook/build.py          # writes handbook.jsonl, prints the counts
    python benchmarks/sets/handbook/build.py --check  # fails if handbook.jsonl is not up to date
"""

from __future__ import annotations

import argparse
import json
import random
import re
import string
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
KB = HERE / "kb"
SOURCE = HERE / "questions.src.jsonl"
OUT = HERE / "handbook.jsonl"
SEED = 74
KINDS = ("owned_unanswered", "kb_simple", "kb_yesno", "general", "chat")
MINIMUM = {"owned_unanswered": 64, "kb_simple": 30, "kb_yesno": 12, "general": 24, "chat": 6}
FIELDS = ("id", "question", "answers", "gold_doc_ids", "is_impossible", "question_type", "language")
PUNCT = set(string.punctuation) | set("，。！？；：、“”‘’（）《》「」【】")
TOKEN = re.compile(r"[\u3400-\u9fff]|[^\W_\u3400-\u9fff]+")


def tokens(text: str) -> list[str]:
    """Normalise as evaluation/metrics.py does: lower case, no punctuation, Chinese by character."""
    text = "".join(ch for ch in text.lower() if ch not in PUNCT)
    return [t for t in TOKEN.findall(text) if t not in ("a", "an", "the")]


def holds(text: str, gold: str) -> bool:
    """Whether the normalised gold is a run of the normalised text's tokens."""
    doc, ref = tokens(text), tokens(gold)
    return bool(ref) and any(doc[i : i + len(ref)] == ref for i in range(len(doc) - len(ref) + 1))


def read_source() -> list[dict[str, Any]]:
    """Read the hand-written records, in file order."""
    lines = SOURCE.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def kb_texts() -> dict[str, str]:
    """Return each knowledge-base file's text by its path relative to kb/ (its doc_id)."""
    return {p.relative_to(KB).as_posix(): p.read_text(encoding="utf-8") for p in KB.rglob("*.md")}


def problems(rows: list[dict[str, Any]], docs: dict[str, str]) -> list[str]:
    """Return what is wrong with the records; an empty list when nothing is."""
    found = []
    ids = Counter(r["id"] for r in rows)
    questions = Counter(r["question"].strip() for r in rows)
    found += [f"id {i} used {n} times" for i, n in ids.items() if n > 1]
    found += [f"question {q!r} asked {n} times" for q, n in questions.items() if n > 1]
    for r in rows:
        rid, kind = r["id"], r["question_type"]
        missing = [f for f in FIELDS if f not in r]
        if missing:
            found.append(f"{rid}: missing {missing}")
            continue
        if kind not in KINDS or not re.fullmatch(rf"hb-{kind}-\d\d", rid):
            found.append(f"{rid}: kind {kind!r} does not match the id")
        if r["language"] not in ("en", "zh"):
            found.append(f"{rid}: language {r['language']!r}")
        if r["is_impossible"] != (kind == "owned_unanswered"):
            found.append(f"{rid}: is_impossible is {r['is_impossible']}")
        if (kind == "owned_unanswered") != (r.get("asked") in ("named", "plain")):
            found.append(f"{rid}: asked is {r.get('asked')!r}")
        if (kind in ("owned_unanswered", "chat")) != (not r["answers"]):
            found.append(f"{rid}: answers {r['answers']}")
        if (kind in ("kb_simple", "kb_yesno")) != bool(r["gold_doc_ids"]):
            found.append(f"{rid}: gold_doc_ids {r['gold_doc_ids']}")
        for doc_id in r["gold_doc_ids"] + r.get("near", []):
            if doc_id not in docs:
                found.append(f"{rid}: no document {doc_id}")
        if kind == "kb_yesno" and r["language"] == "en":
            if r["answers"] not in (["yes"], ["no"]):
                found.append(f"{rid}: an English yes/no gold is ['yes'] or ['no']")
        elif kind in ("kb_simple", "kb_yesno"):
            texts = [docs.get(d, "") for d in r["gold_doc_ids"]]
            for gold in r["answers"]:
                if not any(gold in text and holds(text, gold) for text in texts):
                    found.append(f"{rid}: gold {gold!r} is not in {r['gold_doc_ids']}")
    kinds = Counter(r["question_type"] for r in rows)
    found += [f"{k}: {kinds[k]} < {n}" for k, n in MINIMUM.items() if kinds[k] < n]
    return found


def stratum(r: dict[str, Any]) -> tuple[int, str, str]:
    """Return a record's stratum: its kind (in KINDS order), language and `asked`."""
    return (KINDS.index(r["question_type"]), r["language"], r.get("asked", ""))


def build(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the output records, in source order, with `source` and `held_out`."""
    strata: dict[tuple[int, str, str], list[int]] = {}
    for i, r in enumerate(rows):
        strata.setdefault(stratum(r), []).append(i)
    rng = random.Random(SEED)
    held: set[int] = set()
    for key in sorted(strata):
        members = strata[key]
        held |= set(rng.sample(members, round(len(members) / 3)))
    out = []
    for i, r in enumerate(rows):
        record = {f: r[f] for f in FIELDS}
        if "asked" in r:
            record["asked"] = r["asked"]
        record["source"] = r.get("source", "hand-written")
        record["held_out"] = i in held
        out.append(record)
    return out


def render(records: list[dict[str, Any]]) -> str:
    """Return the JSONL text of the records."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def summary(records: list[dict[str, Any]]) -> None:
    """Print the counts per kind, language, asked and held-out part."""
    print(f"handbook: {len(records)} questions, {sum(r['held_out'] for r in records)} held out")
    print(f"  {'kind':17}{'asked':7}{'n':>4}{'en':>5}{'zh':>5}{'held':>6}")
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in records:
        groups.setdefault((r["question_type"], r.get("asked", "")), []).append(r)
    for kind, asked in sorted(groups, key=lambda k: (KINDS.index(k[0]), k[1])):
        rows = groups[(kind, asked)]
        langs = Counter(r["language"] for r in rows)
        held = sum(r["held_out"] for r in rows)
        print(f"  {kind:17}{asked or '-':7}{len(rows):4}{langs['en']:5}{langs['zh']:5}{held:6}")


def main(argv: list[str] | None = None) -> int:
    """Check the source, build the set, and write it (or, with --check, compare it)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    rows = read_source()
    found = problems(rows, kb_texts())
    if found:
        print("\n".join(found), file=sys.stderr)
        return 1
    text = render(build(rows))
    if args.check:
        if not OUT.is_file() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT.name} is not what build.py makes now", file=sys.stderr)
            return 1
    else:
        OUT.write_text(text, encoding="utf-8")
    summary(build(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
