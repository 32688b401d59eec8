"""Build the traffic-mix sets (traffic_mix.jsonl, company.jsonl) from fixed sources and seeds.

Run from the project root with the project's Python (it reads the shared data through the
package, which locates it as `adaptive-rag eval` does):

    .venv/bin/python benchmarks/sets/traffic_mix/build.py            # write both sets
    .venv/bin/python benchmarks/sets/traffic_mix/build.py --sources  # show follow-up first turns
    .venv/bin/python benchmarks/sets/traffic_mix/build.py --record-check /tmp/mixcheck

The build never calls a model: which general candidates the model answers is read from
direct_check.jsonl, which `--record-check RUN` writes from an `adaptive-rag eval run` of
candidates_general.jsonl with the `direct` configuration (README.md: the command). The same
inputs give the same files, byte for byte.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from adaptive_rag.evaluation.data import eval_data_dir, read_jsonl
from adaptive_rag.evaluation.metrics import contains
from adaptive_rag.evaluation.mix import folder_corpus, traffic_corpus

HERE = Path(__file__).resolve().parent
SETS = HERE.parent
SEED = 61  # every sample of sources (and company's chat/arithmetic)
HELD_OUT_SEED = 6161  # the held-out third, drawn per kind
KINDS = (
    "general",
    "chat",
    "arithmetic",
    "kb_simple",
    "kb_multihop",
    "follow_up",
    "kb_unanswerable",
    "realtime",
    "half",
)
NO_KB = ("general", "chat", "arithmetic")
COUNTS = {
    "general": 54,
    "chat": 15,
    "arithmetic": 15,
    "kb_simple": 36,
    "kb_multihop": 30,
    "follow_up": 14,
    "kb_unanswerable": 20,
    "realtime": 12,
    "half": 14,
}
GENERAL = {"en": 30, "zh": 24}
HALF = {"en": 7, "zh": 7}  # half questions per language: SQuAD2 (en) or CMRC2018 (zh) first part
FOLLOW_UP_SOURCES = {"squad2": 8, "cmrc2018": 6}
COMPANY_REUSED = {"chat": 5, "arithmetic": 5}
EXCLUDED = {
    "gen-zh-041": "its gold 一千 is inside the wrong answer 一千克等于一千克 (a false pass)",
}
"""Candidates the check passed wrongly, left out by id; README.md lists them and why."""
COMPANY_COUNTS = {"general": 54, "chat": 5, "arithmetic": 5, "kb_simple": 20, "kb_unanswerable": 10}


def fail(message: str) -> SystemExit:
    """Return the exit that stops the build with a message (raise it)."""
    return SystemExit(f"build.py: {message}")


def jsonl(name: str) -> list[dict[str, Any]]:
    """Read one of this folder's JSONL files."""
    return read_jsonl(HERE / name)


def record(
    qid: str,
    text: str,
    answers: list[str],
    gold: list[str],
    impossible: bool,
    kind: str,
    language: str,
    source: str,
    **extra: Any,
) -> dict[str, Any]:
    """Return a set record in the schema README.md describes (held_out is set later)."""
    return {
        "id": qid,
        "question": text,
        "answers": list(answers),
        "gold_doc_ids": list(gold),
        "is_impossible": impossible,
        "question_type": kind,
        "language": language,
        **extra,
        "source": source,
    }


class Sources:
    """The shared questions, each pool in file order, and the ids already taken from them."""

    def __init__(self) -> None:
        base = eval_data_dir()
        squad = read_jsonl(base / "squad2" / "questions.jsonl")
        queries = read_jsonl(base / "multihop_rag" / "queries.jsonl")
        self.pools: dict[str, list[dict[str, Any]]] = {
            "squad2": [q for q in squad if not q["is_impossible"]],
            "squad2_impossible": [q for q in squad if q["is_impossible"]],
            "cmrc2018": read_jsonl(base / "cmrc2018" / "cmrc2018_dev500_questions.jsonl"),
            "inference_query": [q for q in queries if q["question_type"] == "inference_query"],
            "comparison_query": [q for q in queries if q["question_type"] == "comparison_query"],
            "null_query": [q for q in queries if q["question_type"] == "null_query"],
            "squad_bridge": read_jsonl(SETS / "squad_bridge" / "squad_bridge.jsonl"),
            "zh_bridge": read_jsonl(SETS / "zh_bridge" / "zh_bridge.jsonl"),
        }
        self.taken: set[str] = set()

    def sample(self, rng: random.Random, pool: str, n: int) -> list[dict[str, Any]]:
        """Draw n questions of a pool not drawn before (a seeded draw; answers are not read)."""
        free = [q for q in self.pools[pool] if f"{pool}:{q['id']}" not in self.taken]
        if len(free) < n:
            raise fail(f"{pool} has {len(free)} questions left, {n} wanted")
        drawn = rng.sample(free, n)
        self.taken.update(f"{pool}:{q['id']}" for q in drawn)
        return drawn


def shared(pool: str, q: dict[str, Any]) -> tuple[str, list[str], str]:
    """Return a shared question's text, golds (each once, in order) and language."""
    if pool in ("inference_query", "comparison_query", "null_query"):
        return q["query"], [q["answer"]], "en"
    golds = list(dict.fromkeys(q["answers"]))
    return q["question"], golds, "zh" if pool in ("cmrc2018", "zh_bridge") else "en"


def source_name(pool: str) -> str:
    """Return the set a pool's questions come from."""
    pools = ("inference_query", "comparison_query", "null_query")
    return "multihop_rag" if pool in pools else "squad2" if pool.startswith("squad2") else pool


def draw_kb(rng: random.Random, src: Sources) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """Draw every knowledge-base source question, in a fixed order, before any general one."""
    plan = {
        "kb_simple": [("squad2", 18), ("cmrc2018", 18)],
        "kb_multihop": [
            ("inference_query", 7),
            ("comparison_query", 7),
            ("squad_bridge", 8),
            ("zh_bridge", 8),
        ],
        "follow_up": list(FOLLOW_UP_SOURCES.items()),
        "kb_unanswerable": [("squad2_impossible", 15), ("null_query", 5)],
        "half": [("squad2", HALF["en"]), ("cmrc2018", HALF["zh"])],
    }
    return {
        kind: [(pool, q) for pool, n in parts for q in src.sample(rng, pool, n)]
        for kind, parts in plan.items()
    }


def kb_records(drawn: dict[str, list[tuple[str, dict[str, Any]]]]) -> list[dict[str, Any]]:
    """Return the kb_simple, kb_multihop and kb_unanswerable records."""
    out = []
    for kind in ("kb_simple", "kb_multihop", "kb_unanswerable"):
        for i, (pool, q) in enumerate(drawn[kind], 1):
            text, answers, language = shared(pool, q)
            impossible = kind == "kb_unanswerable"
            out.append(
                record(
                    f"tm-{kind}-{i:02d}",
                    text,
                    answers,
                    q["gold_doc_ids"],
                    impossible,
                    kind,
                    language,
                    f"{source_name(pool)}:{q['id']}",
                )
            )
    return out


def follow_up_records(
    firsts: list[tuple[str, dict[str, Any]]], corpus: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """Return the hand-written follow-ups, checked against the first turns drawn for them."""
    written = jsonl("followups.jsonl")
    by_source = {(r["source_set"], r["source_id"]): r for r in written}
    wanted = [(source_name(pool), q["id"]) for pool, q in firsts]
    if sorted(by_source) != sorted(wanted) or len(written) != len(wanted):
        raise fail(
            "followups.jsonl does not hold one follow-up per drawn first turn "
            f"(drawn: {wanted}); see them with --sources"
        )
    out = []
    for i, (pool, first) in enumerate(firsts, 1):
        row = by_source[(source_name(pool), first["id"])]
        gold = list(first["gold_doc_ids"])
        paragraph = " ".join(corpus[d]["text"] for d in gold)
        missing = [a for a in row["answers"] if a not in paragraph]
        if missing:
            raise fail(f"follow-up {row['id']}: golds {missing} are not in its paragraph {gold}")
        out.append(
            record(
                f"tm-follow_up-{i:02d}",
                row["question"],
                row["answers"],
                gold,
                False,
                "follow_up",
                row["language"],
                f"followups:{row['id']} (first turn {source_name(pool)}:{first['id']})",
                history=[first["question"]],
            )
        )
    return out


def passing_candidates() -> dict[str, list[dict[str, Any]]]:
    """Return the general candidates the model answered right without documents, per language."""
    candidates = jsonl("candidates_general.jsonl")
    checks = {r["id"]: r for r in jsonl("direct_check.jsonl")}
    unchecked = [c["id"] for c in candidates if c["id"] not in checks]
    if unchecked:
        raise fail(f"direct_check.jsonl has no answer for {unchecked}; rerun the check")
    passing: dict[str, list[dict[str, Any]]] = {"en": [], "zh": []}
    for c in candidates:
        if checks[c["id"]]["acc"] == 1.0 and c["id"] not in EXCLUDED:
            passing[c["language"]].append(c)
    return passing


def general_parts(
    rng: random.Random,
) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    """Draw the general questions per language, then (for half questions) unused ones."""
    passing = passing_candidates()
    chosen: list[dict[str, Any]] = []
    spare: dict[str, list[dict[str, Any]]] = {}
    for language, n in GENERAL.items():
        pool = passing[language]
        if len(pool) < n + HALF[language]:
            raise fail(f"{len(pool)} {language} candidates passed; {n + HALF[language]} needed")
        drawn = rng.sample(pool, n)
        chosen += drawn
        rest = [c for c in pool if c not in drawn]
        spare[language] = rng.sample(rest, HALF[language])
    return chosen, spare


def general_record(c: dict[str, Any], prefix: str, file: str) -> dict[str, Any]:
    """Return a general candidate (or chat, arithmetic, realtime question) as a set record."""
    return record(
        f"{prefix}-{c['id']}",
        c["question"],
        c["answers"],
        [],
        bool(c["is_impossible"]),
        c["question_type"],
        c["language"],
        f"{file}:{c['id']}",
    )


def joined(kb_question: str, general_question: str, language: str) -> str:
    """Ask a knowledge-base question and a general one in one message."""
    if language == "zh":
        head = kb_question.strip()
        head = head if head.endswith(("？", "?")) else head + "？"
        return f"{head}另外，{general_question}"
    head = kb_question.strip().rstrip("?").rstrip()
    return f"{head}, and {general_question[0].lower()}{general_question[1:]}"


def half_records(
    firsts: list[tuple[str, dict[str, Any]]], spare: dict[str, list[dict[str, Any]]]
) -> list[dict[str, Any]]:
    """Pair each drawn knowledge-base question with an unused general one of its language."""
    unused = {language: list(rows) for language, rows in spare.items()}
    out = []
    for i, (pool, q) in enumerate(firsts, 1):
        text, kb_golds, language = shared(pool, q)
        general = unused[language].pop(0)
        out.append(
            record(
                f"tm-half-{i:02d}",
                joined(text, general["question"], language),
                kb_golds + general["answers"],
                q["gold_doc_ids"],
                False,
                "half",
                language,
                f"{source_name(pool)}:{q['id']} + {general['id']}",
                requires=[kb_golds, list(general["answers"])],
            )
        )
    return out


def mark_held_out(records: list[dict[str, Any]], kinds: tuple[str, ...]) -> None:
    """Hold out a third of each kind's questions, drawn with HELD_OUT_SEED."""
    rng = random.Random(HELD_OUT_SEED)
    for kind in kinds:
        ids = [r["id"] for r in records if r["question_type"] == kind]
        held = set(rng.sample(ids, round(len(ids) / 3)))
        for r in records:
            if r["question_type"] == kind:
                r["held_out"] = r["id"] in held


def check(records: list[dict[str, Any]], corpus_ids: set[str], counts: dict[str, int]) -> None:
    """Fail on a wrong count, a repeated id or question, or a gold document not in the corpus."""
    got = Counter(r["question_type"] for r in records)
    if dict(got) != counts:
        raise fail(f"counts {dict(got)} differ from {counts}")
    for field in ("id", "question"):
        repeated = [v for v, n in Counter(r[field] for r in records).items() if n > 1]
        if repeated:
            raise fail(f"repeated {field}s: {repeated}")
    unknown = {d for r in records for d in r["gold_doc_ids"]} - corpus_ids
    if unknown:
        raise fail(f"gold documents not in the corpus: {sorted(unknown)}")
    if any(r["language"] not in ("en", "zh") for r in records):
        raise fail("a record's language is neither en nor zh")


def traffic_mix(corpus: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Build traffic_mix's 210 records (grouped by kind) and mark its held-out third."""
    rng = random.Random(SEED)
    drawn = draw_kb(rng, Sources())
    general, spare = general_parts(rng)  # after every knowledge-base draw: those never move
    records = [general_record(c, "tm", "candidates_general") for c in general]
    for name in ("chat", "arithmetic"):
        records += [general_record(c, "tm", name) for c in jsonl(f"{name}.jsonl")]
    records += kb_records(drawn)
    records += follow_up_records(drawn["follow_up"], corpus)
    records += [general_record(c, "tm", "realtime") for c in jsonl("realtime.jsonl")]
    records += half_records(drawn["half"], spare)
    records.sort(key=lambda r: KINDS.index(r["question_type"]))
    mark_held_out(records, KINDS)
    check(records, set(corpus), COUNTS)
    return records


def company(mix: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Build company.jsonl: traffic_mix's general questions, some chat and arithmetic, own KB."""
    rng = random.Random(SEED)
    reused = [r for r in mix if r["question_type"] == "general"]
    for kind, n in COMPANY_REUSED.items():
        reused += rng.sample([r for r in mix if r["question_type"] == kind], n)
    records = [{**r, "id": "co-" + r["id"].removeprefix("tm-")} for r in reused]
    docs = {d["doc_id"]: d["text"] for d in folder_corpus()}
    own = jsonl("company_kb.jsonl")
    for r in own:
        if not r["is_impossible"]:
            text = " ".join(docs[d] for d in r["gold_doc_ids"])
            if not contains(text, r["answers"]):
                raise fail(f"{r['id']}: no gold of {r['answers']} is in {r['gold_doc_ids']}")
        records.append(
            record(
                r["id"],
                r["question"],
                r["answers"],
                r["gold_doc_ids"],
                r["is_impossible"],
                r["question_type"],
                r["language"],
                f"company_kb:{r['id']}",
            )
        )
    mark_held_out(records, ("kb_simple", "kb_unanswerable"))  # reused ones keep their mark
    check(records, set(docs), COMPANY_COUNTS)
    return records


def write(name: str, records: list[dict[str, Any]]) -> None:
    """Write records as JSONL in this folder."""
    lines = (json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    (HERE / name).write_text("".join(lines), encoding="utf-8")


def summary(name: str, records: list[dict[str, Any]]) -> None:
    """Print the counts per kind, language and held-out part."""
    print(f"{name}: {len(records)} questions")
    for kind in KINDS:
        rows = [r for r in records if r["question_type"] == kind]
        if rows:
            langs = Counter(r["language"] for r in rows)
            held = sum(r["held_out"] for r in rows)
            print(f"  {kind:16} {len(rows):4}  en {langs['en']:3}  zh {langs['zh']:3}  held {held}")
    no_kb = sum(r["question_type"] in NO_KB for r in records)
    held = sum(r["held_out"] for r in records)
    print(f"  no documents needed {no_kb} ({no_kb / len(records):.0%}); held out {held}")


def show_sources() -> None:
    """Print the first turns drawn for follow-ups, with their paragraphs, to write them from."""
    drawn = draw_kb(random.Random(SEED), Sources())
    corpus = {d["doc_id"]: d for d in traffic_corpus()}
    for pool, q in drawn["follow_up"]:
        print(json.dumps({"source_set": source_name(pool), "source_id": q["id"]}))
        print("  Q:", q["question"], "| gold:", q["answers"][0])
        for d in q["gold_doc_ids"]:
            print("  P:", corpus[d]["text"])


def record_check(run: Path) -> None:
    """Write direct_check.jsonl from an eval run of the candidates with the direct config."""
    from adaptive_rag.providers.chat import resolve_model_spec

    settings = json.loads((run / "settings.json").read_text())["candidates_general"]
    model = resolve_model_spec(settings["chat_model"])
    results = {r["id"]: r for r in read_jsonl(run / "results.jsonl") if r["config"] == "direct"}
    rows = []
    for c in jsonl("candidates_general.jsonl"):
        if c["id"] not in results:
            raise fail(f"{run} has no direct answer to {c['id']}; finish the run first")
        r = results[c["id"]]
        rows.append(
            {
                "id": c["id"],
                "question": c["question"],
                "language": c["language"],
                "answer": r["answer"],
                "acc": r["acc"],
                "model": model,
            }
        )
    write("direct_check.jsonl", rows)
    for language in ("en", "zh"):
        mine = [r for r in rows if r["language"] == language]
        print(f"{language}: {sum(r['acc'] == 1.0 for r in mine)} of {len(mine)} passed ({model})")


def main(argv: list[str] | None = None) -> None:
    """Build the sets, or show the follow-up sources, or record the model check."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sources", action="store_true", help="show follow-up first turns")
    parser.add_argument("--record-check", type=Path, metavar="RUN", help="an eval run folder")
    args = parser.parse_args(argv)
    if args.sources:
        show_sources()
        return
    if args.record_check:
        record_check(args.record_check)
        return
    corpus = {d["doc_id"]: d for d in traffic_corpus()}
    mix = traffic_mix(corpus)
    write("traffic_mix.jsonl", mix)
    summary("traffic_mix", mix)
    co = company(mix)
    write("company.jsonl", co)
    summary("traffic_company", co)


if __name__ == "__main__":
    main()
