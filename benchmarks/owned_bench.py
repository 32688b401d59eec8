"""What the agent does with questions about a knowledge base's own things, from `eval run` folders.

`python benchmarks/bench.py owned FOLDER...` reads each run's records (every configuration it
ran) and prints, per set:
- per kind (and, for unanswered questions about the knowledge base's own things, per way of
  asking: naming its names or asked plainly; English or Chinese): Acc, typed declines, answers
  with a citation, answers labelled general knowledge; held-out questions apart;
- answers left "unverified", right and wrong;
- the AUROC of `confidence` for right against wrong outcomes (a decline of an unanswerable
  question is right, of an answerable one wrong), with a bootstrap interval;
- general questions against `direct`: Acc, p50 seconds, and how many ran a search past the probe;
- paired against single-shot and `direct`: wins, losses and the bootstrap interval.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from adaptive_rag.core.judges import Logistic
from adaptive_rag.evaluation.aggregate import grouped, mean, paired, percentile
from adaptive_rag.evaluation.mix import mix_records
from adaptive_rag.evaluation.sets import MIX_SETS
from adaptive_rag.prompts.answer_general import LABEL
from adaptive_rag.prompts.generate import UNVERIFIED_NOTE
from goals import auc, auc_interval

Row = dict[str, Any]

OWNED_UNANSWERED = ("owned_unanswered", "kb_unanswerable")
"""Kinds of questions the knowledge base does not answer about its own things."""
ANSWERABLE_KB = ("kb_simple", "kb_yesno", "kb_multihop", "follow_up")
"""Kinds the knowledge base answers."""


def records(folder: Path, confidence_map: Path | None = None) -> list[Row]:
    """Read a run folder's records, each with `asked` from its set's file where it has one.

    With a confidence map (a confidence.json a fit wrote), each record's confidence is rated
    again by it from the features the run recorded (a failed turn stays at 0).
    """
    lines = (folder / "results.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    if confidence_map is not None:
        fitted = Logistic.from_json(json.loads(confidence_map.read_text(encoding="utf-8")))
        for r in rows:
            if r.get("features") and float(r["confidence"]) > 0:
                r["confidence"] = round(fitted.probability(r["features"]), 2)
    asked: dict[str, str] = {}
    for dataset in {r["dataset"] for r in rows} & set(MIX_SETS):
        asked |= {str(r["id"]): str(r.get("asked") or "") for r in mix_records(dataset)}
    for r in rows:
        r["asked"] = asked.get(str(r["id"]), "")
    return rows


def general_answer(r: Row) -> bool:
    """Whether an answer was given from the model's general knowledge, labelled."""
    return not r["declined"] and any(label in r["answer"] for label in LABEL.values())


def unverified(r: Row) -> bool:
    """Whether an answer was returned marked unverified."""
    return not r["declined"] and any(note in r["answer"] for note in UNVERIFIED_NOTE.values())


def right(r: Row) -> bool:
    """Whether the outcome is right: Acc for an answer, a decline for an unanswerable question."""
    return bool(r["acc"])


def _share(rs: list[Row], test: Callable[[Row], bool]) -> str:
    return f"{sum(test(r) for r in rs)}/{len(rs)}" if rs else "—"


def outcomes(rs: list[Row]) -> Row:
    """Return a group's Acc, declines, cited answers and general-knowledge answers."""
    return {
        "n": len(rs),
        "Acc": f"{mean([r['acc'] for r in rs]):.3f}" if rs else "—",
        "declined": _share(rs, lambda r: r["declined"]),
        "answered, cited": _share(rs, lambda r: not r["declined"] and r["cited"]),
        "answered, general": _share(rs, general_answer),
        "answered, neither": _share(
            rs, lambda r: not r["declined"] and not r["cited"] and not general_answer(r)
        ),
    }


def groups(r: Row) -> list[str]:
    """Name the rows a record is counted in."""
    kind = r["kind"]
    names = [kind]
    if kind in OWNED_UNANSWERED:
        names += [f"{kind}, {r['asked'] or 'named'}", f"{kind}, {r['language']}"]
    if kind in ANSWERABLE_KB:
        names.append("answerable about the knowledge base")
    return names


def kind_table(rs: list[Row]) -> list[Row]:
    """Return one row per kind (and per way of asking) and configuration, held-out apart."""
    table: dict[tuple[str, str, str], list[Row]] = {}
    for r in rs:
        for name in groups(r):
            for part in ("all", "held out") if r.get("held_out") else ("all",):
                table.setdefault((name, r["config"], part), []).append(r)
    ordered = sorted(table, key=lambda k: (k[0], k[2] != "all", k[2], k[1]))
    return [
        {"group": g, "part": p, "config": c, **outcomes(table[(g, c, p)])} for g, c, p in ordered
    ]


def unverified_table(rs: list[Row]) -> list[Row]:
    """Return per configuration how many answers were marked unverified, right and wrong."""
    rows = []
    for config, group in grouped(rs, lambda r: r["config"]).items():
        marked = [r for r in group if unverified(r)]
        rows.append(
            {
                "config": config,
                "unverified": len(marked),
                "right": sum(right(r) for r in marked),
                "wrong": sum(not right(r) for r in marked),
            }
        )
    return rows


def auroc_interval(pairs: list[tuple[float, bool]]) -> str:
    """Return a 95% bootstrap interval of the AUROC (outcomes resampled; goals.auc_interval)."""
    if math.isnan(auc(pairs)):  # one outcome only: no interval
        return "—"
    low, high = auc_interval(pairs)
    return f"[{low:.3f}, {high:.3f}]"


def confidence_table(rs: list[Row]) -> list[Row]:
    """Return the AUROC of confidence, right against wrong, per configuration."""
    rows = []
    for config, group in grouped(rs, lambda r: r["config"]).items():
        pairs = [(float(r["confidence"]), right(r)) for r in group]
        sure = mean([p for p, ok in pairs if ok])
        unsure = mean([p for p, ok in pairs if not ok])
        rows.append(
            {
                "config": config,
                "n": len(pairs),
                "right": sum(ok for _, ok in pairs),
                "AUROC": f"{auc(pairs):.3f}",
                "95% interval": auroc_interval(pairs),
                "mean confidence right / wrong": f"{sure:.2f} / {unsure:.2f}",
            }
        )
    return rows


def searched_past_probe(r: Row) -> bool:
    """Whether a run searched again after classify's probe (retrieve, a rewrite, the web)."""
    steps = r["steps"] if isinstance(r["steps"], list) else []
    return any(s in steps for s in ("retrieve", "transform_query", "web_search"))


def general_table(rs: list[Row]) -> list[Row]:
    """Return general questions per configuration: Acc, p50 and p95 seconds, searches."""
    general = [r for r in rs if r["kind"] == "general"]
    rows = []
    for config, group in grouped(general, lambda r: r["config"]).items():
        seconds = [float(r["seconds"]) for r in group]
        rows.append(
            {
                "config": config,
                "n": len(group),
                "Acc": f"{mean([r['acc'] for r in group]):.3f}",
                "p50 s": round(percentile(seconds, 0.5), 2),
                "p95 s": round(percentile(seconds, 0.95), 2),
                "searched past the probe": _share(group, searched_past_probe),
            }
        )
    base = next((r for r in rows if r["config"] == "direct"), None)
    for row in rows:
        row["p50 × direct"] = round(row["p50 s"] / base["p50 s"], 2) if base else "—"
    return rows


def paired_table(rs: list[Row]) -> list[Row]:
    """Return adaptive against single-shot and direct: all questions, general, answerable."""
    configs = {r["config"] for r in rs}
    rows = []
    for baseline in ("single", "direct"):
        if "adaptive" not in configs or baseline not in configs:
            continue
        for name, keep in (
            ("all", lambda r: True),
            ("general", lambda r: r["kind"] == "general"),
            ("held out", lambda r: bool(r.get("held_out"))),
        ):
            for row in paired([r for r in rs if keep(r)], "adaptive", baseline):
                rows.append({"questions": name, **row})
    return rows
