"""Run the adaptive graph and its baselines over a data set; record quality, retrieval and cost."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from adaptive_rag.evaluation.baselines import build_full_pipeline, build_single_shot
from adaptive_rag.evaluation.data import corpus_to_jsonl, data_dir, read_jsonl
from adaptive_rag.evaluation.metrics import exact_match, f1
from adaptive_rag.graph.builder import build_graph
from adaptive_rag.graph.context import Context
from adaptive_rag.knowledge.store import KnowledgeBase
from adaptive_rag.nodes.finalize import UNVERIFIED_NOTE
from adaptive_rag.prompts import generate as generate_prompts
from adaptive_rag.services import Services
from langgraph.checkpoint.memory import InMemorySaver

CONFIGS = ("adaptive", "full", "single")
KB_DESCRIPTIONS = {
    "squad2": "Wikipedia paragraphs on many topics (history, science, places, people)",
    "multihop_rag": "news articles from late 2023 (technology, business, sports, entertainment)",
    "cmrc2018": "中文维基百科段落（Chinese Wikipedia passages on many topics）",
}
_ABSTAIN = re.compile(
    r"do(es)? not (say|mention|contain|provide)|not (mentioned|provided|specified|stated)|"
    r"cannot (be )?(determine|answer|find)|no information|insufficient|unknown|"
    r"found nothing|没有提到|未提及|无法|不知道",
    re.IGNORECASE,
)


@dataclass
class EvalSet:
    """Questions (with gold answers and documents) over a corpus."""

    name: str
    questions: list[dict[str, Any]]  # id, question, answers, gold_doc_ids, impossible
    corpus: list[dict[str, Any]]  # doc_id, text, title


def load_eval_set(name: str, corpus: Path | None = None) -> EvalSet:
    """Load a shared set by name, or a JSONL of questions with a JSONL corpus beside it."""
    base = data_dir() if name in KB_DESCRIPTIONS else None
    if name == "squad2" and base:
        rows = read_jsonl(base / "squad2" / "questions.jsonl")
        qs = [
            _question(r["id"], r["question"], r["answers"], r["gold_doc_ids"], r["is_impossible"])
            for r in rows
        ]
        return EvalSet(name, qs, read_jsonl(base / "squad2" / "corpus.jsonl"))
    if name == "multihop_rag" and base:
        rows = read_jsonl(base / "multihop_rag" / "queries.jsonl")
        qs = [
            _question(
                r["id"],
                r["query"],
                [r["answer"]],
                r["gold_doc_ids"],
                r.get("question_type") == "null_query",
            )
            for r in rows
        ]
        return EvalSet(name, qs, read_jsonl(base / "multihop_rag" / "evidence_corpus.jsonl"))
    if name == "cmrc2018" and base:
        folder = base / "cmrc2018"
        rows = read_jsonl(folder / "cmrc2018_dev500_questions.jsonl")
        qs = [
            _question(r["id"], r["question"], r["answers"], r["gold_doc_ids"], False) for r in rows
        ]
        return EvalSet(name, qs, read_jsonl(folder / "cmrc2018_dev500_corpus.jsonl"))
    path = Path(name)
    if not path.is_file() or corpus is None or not corpus.is_file():
        raise ValueError(
            f"unknown data set {name!r}: use squad2, multihop_rag, cmrc2018, or a questions JSONL"
            " with --corpus CORPUS.jsonl (doc_id, text)"
        )
    qs = []
    for i, r in enumerate(read_jsonl(path)):
        answers = r.get("answers") or ([r["answer"]] if r.get("answer") else [])
        qs.append(
            _question(
                str(r.get("id", i)),
                r["question"],
                answers,
                list(r.get("gold_doc_ids", [])),
                bool(r.get("is_impossible")),
            )
        )
    return EvalSet(path.stem, qs, read_jsonl(corpus))


def _question(
    qid: str, question: str, answers: list[str], gold: list[str], impossible: bool
) -> dict[str, Any]:
    return {
        "id": str(qid),
        "question": question,
        "answers": answers,
        "gold_doc_ids": gold,
        "impossible": impossible,
    }


def answer_text(answer: str) -> str:
    """Strip the notes the agent adds for users, so only the answer itself is scored."""
    notes = (UNVERIFIED_NOTE, generate_prompts.DIRECT_NOTE)
    kept = []
    for block in answer.split("\n\n"):
        text = block.strip()
        if (
            not text
            or text in notes
            or text.startswith(("The web could not be searched", generate_prompts.NO_SOURCES_NOTE))
        ):
            continue
        kept.append(text)
    return re.sub(r"\[\d+(?:\s*[,，]\s*\d+)*\]", "", " ".join(kept)).strip()


def score_answer(answer: str, question: dict[str, Any]) -> tuple[float, float]:
    """(exact match, F1); for an unanswerable question, abstaining scores 1."""
    text = answer_text(answer)
    if question["impossible"]:
        hit = float(bool(_ABSTAIN.search(text)))
        return hit, hit
    return exact_match(text, question["answers"]), f1(text, question["answers"])


def pick(
    questions: list[dict[str, Any]], limit: int, sample: bool, seed: int
) -> list[dict[str, Any]]:
    """Take the first `limit` questions, or a seeded random sample of them."""
    chosen = list(questions)
    if sample:
        random.Random(seed).shuffle(chosen)
    return chosen[:limit] if limit else chosen


def run_eval(
    dataset: str,
    out_dir: Path,
    configs: tuple[str, ...] = CONFIGS,
    limit: int = 0,
    sample: bool = False,
    seed: int = 13,
    corpus: Path | None = None,
    services: Services | None = None,
    context: dict[str, Any] | None = None,
    progress: bool = True,
) -> Path:
    """Run each configuration on each question (interleaved), appending to results.jsonl.

    Finished (config, question) pairs are skipped, so an interrupted run resumes.
    """
    from tqdm import tqdm  # noqa: PLC0415

    unknown = set(configs) - set(CONFIGS)
    if unknown:
        raise ValueError(f"unknown configurations {sorted(unknown)}; use {', '.join(CONFIGS)}")
    data = load_eval_set(dataset, corpus)
    out_dir.mkdir(parents=True, exist_ok=True)
    effective = asdict(Context(**(context or {})))  # defaults too: they change between versions
    record_settings(out_dir, data.name, {k: v for k, v in effective.items() if k != "kb_path"})
    results = out_dir / "results.jsonl"
    done = (
        {(r["dataset"], r["config"], r["id"]) for r in read_jsonl(results)}
        if results.exists()
        else set()
    )
    collection = re.sub(r"[^a-zA-Z0-9]+", "-", data.name).strip("-")[:60] or "eval"
    kb_dir = out_dir / "kb"
    kb = KnowledgeBase.open(
        str(kb_dir), collection, (context or {}).get("embedding_model", "auto"), create=True
    )
    kb.ingest([str(corpus_to_jsonl(data.corpus, out_dir / f"{collection}.corpus.jsonl"))], progress)
    svc = services or Services(no_web=True)
    ctx_args = {
        "kb_path": str(kb_dir),
        "collection": collection,
        "kb_description": KB_DESCRIPTIONS.get(data.name, "the evaluation corpus"),
        **(context or {}),
    }
    graphs: dict[str, Any] = {
        "adaptive": build_graph(InMemorySaver(), services=svc),
        "full": build_full_pipeline(svc, InMemorySaver()),
        "single": build_single_shot(svc, InMemorySaver()),
    }
    contexts = {
        "adaptive": Context(**ctx_args),
        "full": Context(  # always grades and self-checks; its first rewrite costs no budget
            **{
                **ctx_args,
                "max_rewrites": Context(**ctx_args).max_rewrites + 1,
                "skip_checks_when_confident": False,
            }
        ),
        "single": Context(**ctx_args),
    }
    questions = pick(data.questions, limit, sample, seed)
    todo = [
        (q, c)
        for i, q in enumerate(questions)
        for c in (configs if i % 2 == 0 else tuple(reversed(configs)))  # alternate the order
        if (data.name, c, q["id"]) not in done
    ]
    with (
        results.open("a", encoding="utf-8") as sink,
        tqdm(total=len(todo), desc=f"eval {data.name}", unit="run", disable=not progress) as bar,
    ):
        for question, config in todo:
            record = run_one(graphs[config], contexts[config], data.name, config, question)
            sink.write(json.dumps(record, ensure_ascii=False) + "\n")
            sink.flush()
            bar.update(1)
    return results


def record_settings(out_dir: Path, dataset: str, settings: dict[str, Any]) -> None:
    """Keep each data set's settings beside its results; resuming with others would mix runs."""
    path = out_dir / "settings.json"
    recorded = json.loads(path.read_text()) if path.exists() else {}
    if dataset in recorded and recorded[dataset] != settings:
        raise ValueError(
            f"{out_dir} holds {dataset} results made with settings {recorded[dataset]}; "
            f"use another --out for {settings}"
        )
    recorded[dataset] = settings
    path.write_text(json.dumps(recorded, indent=2, sort_keys=True))


def run_one(
    graph: Any, ctx: Context, dataset: str, config: str, question: dict[str, Any]
) -> dict[str, Any]:
    """Answer one question with one configuration and measure everything about it."""
    thread = {"configurable": {"thread_id": f"{dataset}:{config}:{question['id']}"}}
    started = time.perf_counter()
    out = graph.invoke({"question": question["question"]}, thread, context=ctx)
    seconds = time.perf_counter() - started
    state = graph.get_state(thread).values
    used = list(state.get("documents") or []) or list(state.get("rejected") or [])
    used_ids = list(dict.fromkeys(str(d.metadata.get("doc_id", "")) for d in used if d.metadata))
    em, f1_score = score_answer(out["answer"], question)
    route = out.get("route") or {}
    diag = out["diagnostics"]
    return {
        "dataset": dataset,
        "config": config,
        "id": question["id"],
        "question": question["question"],
        "impossible": question["impossible"],
        "gold_doc_ids": question["gold_doc_ids"],
        "answer": out["answer"],
        "em": em,
        "f1": f1_score,
        "verified": out["verified"],
        "unverified": "Unverified" in out["answer"],
        "confidence": out["confidence"],
        "route": route.get("category", config),
        "route_method": route.get("method", "-"),
        "used_doc_ids": used_ids,
        "seconds": round(seconds, 3),
        **{
            k: diag[k]
            for k in (
                "model_calls",
                "tokens_in",
                "tokens_out",
                "retrievals",
                "web_searches",
                "rewrites",
                "regenerations",
                "generations",
            )
        },
        "steps": diag["steps"],
        "notes": diag["notes"],
    }


def percentile(values: list[float], q: float) -> float:
    """Return the q-quantile by nearest rank (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def summarize(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Aggregate per (data set, configuration)."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in records:
        groups.setdefault((r["dataset"], r["config"]), []).append(r)
    rows = []
    for (dataset, config), rs in sorted(groups.items()):
        n = len(rs)
        answerable = [r for r in rs if not r["impossible"] and r["gold_doc_ids"]]
        mean: Callable[[list[float]], float] = lambda xs: round(sum(xs) / len(xs), 3) if xs else 0.0  # noqa: E731
        wrong_irrelevant = [
            r
            for r in answerable
            if r["f1"] < 0.2
            and r["used_doc_ids"]
            and not set(r["used_doc_ids"]) & set(r["gold_doc_ids"])
        ]
        rows.append(
            {
                "dataset": dataset,
                "config": config,
                "n": n,
                "em": mean([r["em"] for r in rs]),
                "f1": mean([r["f1"] for r in rs]),
                "unverified": mean([float(r["unverified"]) for r in rs]),
                "hit@4": mean(
                    [
                        float(bool(set(r["used_doc_ids"][:4]) & set(r["gold_doc_ids"])))
                        for r in answerable
                    ]
                ),
                "allgold@4": mean(
                    [
                        float(set(r["gold_doc_ids"]) <= set(r["used_doc_ids"][:4]))
                        for r in answerable
                    ]
                ),
                "mrr@10": mean(
                    [
                        next(
                            (
                                1 / (i + 1)
                                for i, d in enumerate(r["used_doc_ids"][:10])
                                if d in r["gold_doc_ids"]
                            ),
                            0.0,
                        )
                        for r in answerable
                    ]
                ),
                "calls_median": percentile([r["model_calls"] for r in rs], 0.5),
                "tokens_median": percentile([r["tokens_in"] + r["tokens_out"] for r in rs], 0.5),
                "tokens_mean": round(sum(r["tokens_in"] + r["tokens_out"] for r in rs) / n),
                "retrievals_mean": mean([r["retrievals"] for r in rs]),
                "web_mean": mean([r["web_searches"] for r in rs]),
                "p50_s": round(percentile([r["seconds"] for r in rs], 0.5), 2),
                "p95_s": round(percentile([r["seconds"] for r in rs], 0.95), 2),
                "wrong_from_irrelevant": round(len(wrong_irrelevant) / max(len(answerable), 1), 3),
            }
        )
    return rows


def by_route(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Cost of the adaptive graph per route: count, median and p95 latency, median calls."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        if r["config"] == "adaptive":
            groups.setdefault(r["route"], []).append(r)
    return [
        {
            "route": route,
            "n": len(rs),
            "p50_s": round(percentile([r["seconds"] for r in rs], 0.5), 2),
            "p95_s": round(percentile([r["seconds"] for r in rs], 0.95), 2),
            "calls_median": percentile([r["model_calls"] for r in rs], 0.5),
            "f1": round(sum(r["f1"] for r in rs) / len(rs), 3),
        }
        for route, rs in sorted(groups.items())
    ]
