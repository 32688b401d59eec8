"""Run the adaptive graph and its baselines over a data set; record quality, retrieval and cost."""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from pathlib import Path
from typing import Any

from adaptive_rag.core.grounding import check
from adaptive_rag.evaluation.baselines import (
    build_full_pipeline,
    build_multi_step,
    build_no_retrieval,
    build_single_shot,
    build_without_assess,
)
from adaptive_rag.evaluation.data import corpus_to_jsonl, read_jsonl
from adaptive_rag.evaluation.scoring import correct, score
from adaptive_rag.evaluation.sets import (
    KB_DESCRIPTIONS,
    EvalSet,
    load_eval_set,
    of_kinds,
    pick,
)
from adaptive_rag.evaluation.turns import run_thread
from adaptive_rag.graph.builder import build_graph
from adaptive_rag.knowledge.interface import KnowledgeStore
from adaptive_rag.knowledge.opening import open_store
from adaptive_rag.knowledge.sources import source_texts
from adaptive_rag.nodes.finalize import confidence_features
from adaptive_rag.nodes.self_check import answer_body
from adaptive_rag.schema.context import Context
from adaptive_rag.schema.values import COUNTERS
from adaptive_rag.services import Services
from langgraph.checkpoint.memory import InMemorySaver

CONFIGS = ("adaptive", "full", "single", "direct", "multi", "noassess")
"""adaptive: the graph; full: every step, no routing; single: plain RAG; direct: no retrieval;
multi: always multi-step (single, direct and multi are the fixed strategies labels are derived
from); noassess: the graph with an `assess` that asks no model (an ablation of its odds)."""
DEFAULT_CONFIGS = ("adaptive", "full", "single")


def run_eval(
    dataset: str,
    out_dir: Path,
    configs: tuple[str, ...] = DEFAULT_CONFIGS,
    limit: int = 0,
    sample: bool = False,
    seed: int = 13,
    corpus: Path | None = None,
    kinds: tuple[str, ...] = (),
    services: Services | None = None,
    context: dict[str, Any] | None = None,
    progress: bool = True,
) -> Path:
    """Run each configuration on each question (interleaved), appending to results.jsonl.

    Finished (config, question) pairs are skipped, so an interrupted run resumes. `kinds`:
    only questions of these kinds (a set's question types) are sampled from.
    """
    from tqdm import tqdm

    unknown = set(configs) - set(CONFIGS)
    if unknown:
        raise ValueError(f"unknown configurations {sorted(unknown)}; use {', '.join(CONFIGS)}")
    data = of_kinds(load_eval_set(dataset, corpus), kinds)
    out_dir.mkdir(parents=True, exist_ok=True)
    effective = asdict(Context(**(context or {})))  # defaults too: they change between versions
    recorded = {k: v for k, v in effective.items() if k != "kb_path"}
    if kinds:  # only when narrowed, so folders from before --kinds still resume
        recorded["kinds"] = sorted(kinds)
    record_settings(out_dir, data.name, recorded)
    results = out_dir / "results.jsonl"
    done = finished(results)
    embedding_model = (context or {}).get("embedding_model", "auto")
    eval_knowledge_base(data, out_dir, embedding_model, progress)
    svc = services or Services(no_web=True)
    ctx_args = run_context(out_dir, data.name, context)
    graphs, contexts = configurations(svc, ctx_args)
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
            forget_prompt_cache(svc, contexts[config])
            record = run_one(graphs[config], contexts[config], data.name, config, question)
            sink.write(json.dumps(record, ensure_ascii=False) + "\n")
            sink.flush()
            bar.update(1)
    return results


def eval_knowledge_base(
    data: EvalSet, out_dir: Path, embedding_model: str, progress: bool
) -> KnowledgeStore:
    """Open (building it once) the set's corpus index in the run folder; reruns reuse it.

    With KNOWLEDGE_URI set, the corpus is indexed in that PostgreSQL database instead.
    """
    collection = collection_name(data.name)
    kb = open_store(str(out_dir / "kb"), collection, embedding_model, create=True)
    kb.ingest([str(corpus_to_jsonl(data.corpus, out_dir / f"{collection}.corpus.jsonl"))], progress)
    return kb


def collection_name(dataset: str) -> str:
    """Return the collection a data set's corpus is indexed as in a run folder's `kb/`."""
    return re.sub(r"[^a-zA-Z0-9]+", "-", dataset).strip("-")[:60] or "eval"


def run_context(
    out_dir: Path, dataset: str, overrides: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Return the Context fields a run folder's configurations answer with: its index, overrides."""
    return {
        "kb_path": str(out_dir / "kb"),
        "collection": collection_name(dataset),
        "kb_description": KB_DESCRIPTIONS.get(dataset, "the evaluation corpus"),
        "answer_cache": False,  # each configuration answers each question afresh
        **(overrides or {}),
    }


def finished(results: Path) -> set[tuple[str, str, str]]:
    """Return the (data set, configuration, question) runs a results file already holds."""
    if not results.exists():
        return set()
    return {(r["dataset"], r["config"], r["id"]) for r in read_jsonl(results)}


def configurations(
    svc: Services, ctx_args: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Context]]:
    """Build each configuration's graph and Context over the same services and index."""
    graphs: dict[str, Any] = {
        "adaptive": build_graph(InMemorySaver(), services=svc),
        "full": build_full_pipeline(svc, InMemorySaver()),
        "single": build_single_shot(svc, InMemorySaver()),
        "direct": build_no_retrieval(svc, InMemorySaver()),
        "multi": build_multi_step(svc, InMemorySaver()),
        "noassess": build_without_assess(svc, InMemorySaver()),
    }
    contexts = {
        "adaptive": Context(**ctx_args),
        "full": Context(  # always grades and self-checks; its first rewrite costs no budget
            **{
                **ctx_args,
                "max_rewrites": Context(**ctx_args).max_rewrites + 1,
            }
        ),
        "single": Context(**ctx_args),
        "direct": Context(**ctx_args),
        "multi": Context(**ctx_args),
        "noassess": Context(**ctx_args),
    }
    return graphs, contexts


def forget_prompt_cache(services: Services, ctx: Context) -> None:
    """Start each run cold: an embedded model would otherwise reuse the previous run's prompt.

    Configurations run back to back on the same question; without this the second one finds the
    first one's sources already computed, which no real user's next question would.
    """
    try:
        model = services.chat(ctx)
    except Exception:  # no model: the run itself will say so
        return
    client = getattr(model, "client", None)
    if client is not None and callable(getattr(client, "reset", None)):
        client.reset()


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
    """Answer one question with one configuration and measure everything about it.

    A question with a `history` is the last turn of a thread: each earlier question is sent
    first as its own turn on the same thread, as a chat client would (a configuration without
    conversation memory gets the same messages). Only the last turn is scored and timed; the
    earlier turns' time is `history_seconds`.
    """
    thread = {"configurable": {"thread_id": f"{dataset}:{config}:{question['id']}"}}
    history = [str(h) for h in question.get("history") or [] if str(h).strip()]
    history_seconds, last = run_thread(graph, ctx, thread, [*history, question["question"]])
    out, node_seconds, first, seconds = last
    state = graph.get_state(thread).values
    used = list(state.get("documents") or []) or list(state.get("rejected") or [])
    used_ids = list(dict.fromkeys(str(d.metadata.get("doc_id", "")) for d in used if d.metadata))
    route = out.get("route") or {}
    diag = out["diagnostics"]
    return {
        "dataset": dataset,
        "config": config,
        "id": question["id"],
        "question": question["question"],
        "kind": question["kind"],
        "impossible": question["impossible"],
        "gold_doc_ids": question["gold_doc_ids"],
        "answers": question["answers"],
        "held_out": bool(question.get("held_out", False)),
        "requires": list(question.get("requires") or []),
        "history": history,
        "turns": len(history) + 1,
        "answer": out["answer"],
        # the first answer written this turn (turns.WRITERS), before any check or rewrite changed it
        "first_answer": first or "",
        "first_acc": (
            None if question["impossible"] or first is None else correct(first, False, question)
        ),
        # the best attempt a decline replaced (the only one unless the answer was written again),
        # so another decline rule can be scored on the same runs
        "written": "" if out["answerable"] else state.get("best_answer") or "",
        "notices": list(out.get("notices") or []),
        **score(out, question),
        "verified": out["verified"],
        "confidence": out["confidence"],
        "features": confidence_features(state),
        "answer_features": state.get("answer_features") or {},
        "judgments": diag.get("judgments", []),
        "support": diag.get("support"),
        "sources_read": source_texts(used),
        "citations_supported": citations_supported(out, source_texts(used), question["question"]),
        "route": route.get("category", config),
        "route_method": route.get("method", "-"),
        "used_doc_ids": used_ids,
        "seconds": round(seconds, 3),
        "history_seconds": round(history_seconds, 3),
        "node_seconds": node_seconds,
        **{k: diag[k] for k in COUNTERS},
        "steps": diag["steps"],
        "notes": diag["notes"],
    }


def citations_supported(out: dict[str, Any], sources: list[str], question: str) -> bool | None:
    """Whether every citation of an answer names a source read that supports its sentence.

    A sentence the check finds nothing to refute by is not counted: one with no terms of its own
    ("This is stated in [1].") or too few words to judge, whose names and numbers its cited
    source holds ("unchecked"). None for a decline or an answer that cites nothing else (there
    is no citation to check).
    """
    if not out.get("answerable", True):
        return None
    text = answer_body(out.get("answer") or "", list(out.get("notices") or []))
    grounding = check(text, sources, question)
    cited = [
        s for s in grounding.sentences if s.cited and s.status not in ("no_content", "unchecked")
    ]
    if not cited:
        return None
    return all(set(s.cited) <= set(s.supporting) for s in cited)
