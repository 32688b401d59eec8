"""The developer benchmarks run from a clone as a script, over the installed package."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
COMMANDS = (
    "retrieval",
    "stores",
    "fusion",
    "answers",
    "owned",
    "aegra",
    "access",
    "models",
    "concurrency",
    "ttft",
    "answer-cache",
    "grounding",
    "ingest-server",
    "path",
)


@pytest.fixture
def bench_path(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Put benchmarks/ first on sys.path, as running `python benchmarks/bench.py` does."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return BENCHMARKS


def test_the_script_lists_every_benchmark(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench.py"), "--help"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,  # from anywhere: the script finds its own modules beside it
    )
    for command in COMMANDS:
        assert command in out.stdout, out.stdout


def test_every_benchmark_module_imports(bench_path: Path) -> None:
    names = sorted(p.stem for p in bench_path.glob("*_bench.py"))
    assert len(names) == 14
    for name in names:
        module = importlib.import_module(name)
        assert module.__doc__, name


def _scored(values: dict[str, float]) -> list[dict[str, float]]:
    """One question's scores, AllGold@k of each k given by `values` ('2', '4', '10')."""
    return [{f"allgold@{k}": v for k, v in values.items()}]


def test_the_fusion_weights_are_fitted_without_the_set_scored(
    bench_path: Path, tmp_path: Path
) -> None:
    fb = importlib.import_module("fusion_bench")
    low, high = {"2": 0.0, "4": 0.0, "10": 0.0}, {"2": 1.0, "4": 1.0, "10": 1.0}
    half = {"2": 0.5, "4": 0.5, "10": 0.5}

    def one_set(best: str) -> dict[str, list[dict[str, float]]]:
        scores = {label: _scored(half) for label in fb.candidates()}
        scores[best] = _scored(high)
        searched = [{"keyword": [2.0, 1.0], "vector": [0.9, 0.8]}]
        return {
            "keyword": _scored(half),
            "vector": _scored(low),
            **scores,
            "_channel_scores": searched,
        }

    scores = {
        "a": one_set("keyword 0.5, graph 1"),
        "b": one_set("keyword 0.5, graph 1"),
        "held": one_set("keyword 2, graph 1"),
    }
    assert fb.fitted(scores, ["a", "b"]) == "keyword 0.5, graph 1"
    assert fb.fitted(scores, ["held"]) == "keyword 2, graph 1"
    rows = fb.held_out_rows(scores, ["held"])
    fitted_rows = {r["dataset"]: r for r in rows if r["fusion"].startswith("fitted")}
    assert fitted_rows["held"]["fusion"].endswith("keyword 0.5, graph 1")  # never fitted on it
    assert fitted_rows["held"]["allgold@2"] == 0.5
    assert fitted_rows["held"]["below the best channel at k"] == "none"  # equal to keyword's
    scores["held"]["keyword 0.5, graph 1"] = _scored({"2": 0.5, "4": 0.0, "10": 0.5})
    rows = fb.held_out_rows(scores, ["held"])
    held = [r for r in rows if r["dataset"] == "held" and r["fusion"].startswith("fitted")]
    assert held[0]["below the best channel at k"] == "4"
    saved = tmp_path / "scores.json"
    saved.write_text(json.dumps(scores))
    bench = importlib.import_module("bench")
    result = CliRunner().invoke(
        bench.bench, ["fusion", "--scores", str(saved), "--held-out", "held"]
    )
    assert result.exit_code == 0, result.output
    assert "fitted without this set: keyword 0.5, graph 1" in result.output
    signals = {r["signal"]: r for r in fb.signal_rows(scores, ["held"])}
    assert signals["keyword: best score"]["questions"] == 2  # a and b; held out is not read
    assert signals["keyword: best score"]["vector better"] == 0


def test_latency_at_scale_runs_offline(bench_path: Path) -> None:
    bench = importlib.import_module("bench")
    result = CliRunner().invoke(
        bench.bench, ["retrieval", "--no-recall", "--sets", "", "--sizes", "200"]
    )
    assert result.exit_code == 0, result.output
    assert "### Latency at scale" in result.output and "| 200 |" in result.output


def test_the_script_writes_its_tables_where_asked(tmp_path: Path) -> None:
    out = tmp_path / "scale.md"
    subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench.py"), "retrieval", "--no-recall", "--sets", ""]
        + ["--sizes", "200", "--out", str(out)],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    assert "| 200 |" in out.read_text()


def test_answers_pairs_two_runs_question_by_question(bench_path: Path, tmp_path: Path) -> None:
    import json

    def run(name: str, accs: list[float], declined: list[bool]) -> Path:
        folder = tmp_path / name
        folder.mkdir()
        records = [
            {
                "dataset": "squad2",
                "config": "adaptive",
                "id": f"q{i}",
                "acc": acc,
                "answer": f"{name} {i}" if acc == 0 else f"answer {i}",
                "impossible": i >= 3,
                "declined": gone,
            }
            for i, (acc, gone) in enumerate(zip(accs, declined, strict=True))
        ]
        records.append({**records[0], "config": "single", "acc": 0.0})  # another configuration
        (folder / "results.jsonl").write_text("\n".join(json.dumps(r) for r in records))
        return folder

    chroma = run("chroma", [1, 0, 1, 1, 0], [False, False, False, True, False])
    pg = run("pg", [1, 1, 0, 1, 1], [False, False, False, True, True])
    bench = importlib.import_module("bench")
    result = CliRunner().invoke(
        bench.bench, ["answers", f"{chroma},{pg}", "--labels", "Chroma,PostgreSQL"]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert "| PostgreSQL won / lost |" in lines[0]
    row = lines[2]
    assert row.startswith("| squad2 | 5 | 0.6 | 0.8 | 2 / 1 | +0.200 ")
    assert "| 2 / 5 | 1 / 2, 2 / 2 |" in row  # same text where both were right
    # the three questions whose answers differ, each run's answer and score side by side
    assert "### Answers that differ" in result.output
    differ = [line for line in lines if line.startswith("| squad2 | q")]
    assert [line.split(" | ")[1] for line in differ] == ["q1", "q2", "q4"]
    assert "| 0 | chroma 1 | 1 | answer 1 |" in differ[0]
    bad = CliRunner().invoke(bench.bench, ["answers", f"{chroma}", "--labels", "a,b"])
    assert bad.exit_code != 0 and "FIRST_RUN,SECOND_RUN" in bad.output
    missing = CliRunner().invoke(bench.bench, ["answers", f"{chroma},{tmp_path / 'nowhere'}"])
    assert missing.exit_code != 0 and "no results.jsonl" in missing.output


def test_the_question_path_groups_its_modules_into_faces(bench_path: Path, tmp_path: Path) -> None:
    qp = importlib.import_module("question_path")
    sources = {  # each traced module's text; the steps' imports name the faces
        "adaptive_rag.nodes.generate": "from adaptive_rag.core.text import terms_of\n"
        "from adaptive_rag.nodekit import calling\n"
        "from adaptive_rag.prompts.generate import build\n",
        "adaptive_rag.prompts.generate": "x = 1\n",  # a node's prompt module: with its node
        "adaptive_rag.core.text": "x = 1\n",
        "adaptive_rag.core.text.terms_zh": "x = 1\n" * 100,  # inside the face core.text
        "adaptive_rag.nodekit.calling": "from adaptive_rag.knowledge import retriever\n",
        "adaptive_rag.knowledge.retriever": "x = 1\n" * 301,  # behind nodekit.calling
    }
    files = {}
    for name, text in sources.items():
        files[name] = str(tmp_path / f"{name}.py")
        Path(files[name]).write_text(text)
    out = {"route": {"category": "simple"}, "diagnostics": {"steps": ["intake"]}, "answer": "a"}
    lines = qp.report(out, files)
    assert "| `adaptive_rag.knowledge.retriever` | 301 |" in lines
    assert "6 modules, 407 lines; 1 over 300 lines: adaptive_rag.knowledge.retriever" in lines
    assert "1 steps: nodes.generate" in lines
    assert "| `core.text` | terms_zh |" in lines
    assert "| `nodekit.calling` |  |" in lines
    assert lines[-1] == (
        "2 faces; behind them, reached only through a face (a reader may skip): knowledge.retriever"
    )


def test_reranking_reorders_the_first_candidates_alone(bench_path: Path) -> None:
    fb = importlib.import_module("fusion_bench")
    ids = ["a", "b", "a", "c", "d"]  # chunks' documents, in fused order
    model = [0.1, 0.2, 0.9, 0.8, 5.0]
    assert fb.reranked(ids, model, 4, None) == ["a", "c", "b", "d"]  # "d" stays below the four
    assert fb.reranked(ids, model, 5, None) == ["d", "a", "c", "b"]
    # beside the fused rank, a reranker's rank moves a chunk up without overturning the order
    assert fb.reranked(["a", "b", "c"], [0.0, 0.0, 9.0], 3, 0.1) == ["a", "b", "c"]
    assert fb.reranked(["a", "b", "c"], [0.0, 0.0, 9.0], 3, 2.0) == ["c", "a", "b"]


def _record(config: str, qid: str, kind: str, **fields: object) -> dict[str, object]:
    """One `eval run` record with what the owned benchmark reads."""
    base: dict[str, object] = {
        "dataset": "mine",
        "config": config,
        "id": qid,
        "kind": kind,
        "language": "en",
        "held_out": False,
        "acc": 0.0,
        "declined": False,
        "cited": False,
        "answer": "",
        "confidence": 0.5,
        "seconds": 1.0,
        "steps": ["intake", "classify", "finalize"],
    }
    return {**base, **fields}


def test_the_owned_benchmark_counts_declines_general_answers_and_confidence(
    bench_path: Path, tmp_path: Path
) -> None:
    from adaptive_rag.prompts.answer_general import LABEL
    from adaptive_rag.prompts.generate import UNVERIFIED_NOTE

    rows = [
        _record("adaptive", "u1", "owned_unanswered", declined=True, acc=1.0, confidence=0.9),
        _record("adaptive", "u2", "owned_unanswered", answer=f"Yes.\n\n{LABEL['en']}"),
        _record("adaptive", "a1", "kb_simple", acc=1.0, cited=True, confidence=0.8),
        _record(
            "adaptive", "a2", "kb_simple", answer=f"No [1].\n\n{UNVERIFIED_NOTE['en']}", cited=True
        ),
        _record(
            "adaptive",
            "g1",
            "general",
            acc=1.0,
            seconds=2.0,
            confidence=0.7,
            answer=f"x\n\n{LABEL['en']}",
        ),
        _record("direct", "g1", "general", acc=1.0, seconds=1.0),
        _record("direct", "g2", "general", acc=1.0, seconds=3.0),
        _record("direct", "g3", "general", acc=1.0, seconds=9.0),
        _record("single", "u1", "owned_unanswered", cited=True, answer="Yes [1]."),
    ]
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "results.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    ob = importlib.import_module("owned_bench")
    records = ob.records(folder)
    kinds = {(r["group"], r["config"]): r for r in ob.kind_table(records) if r["part"] == "all"}
    owned = kinds[("owned_unanswered", "adaptive")]
    assert (owned["declined"], owned["answered, general"], owned["answered, cited"]) == (
        "1/2",
        "1/2",
        "0/2",
    )
    assert kinds[("owned_unanswered", "single")]["answered, cited"] == "1/1"
    marked = {r["config"]: r for r in ob.unverified_table(records)}["adaptive"]
    assert (marked["unverified"], marked["right"], marked["wrong"]) == (1, 0, 1)
    confidence = {r["config"]: r for r in ob.confidence_table(records)}["adaptive"]
    assert confidence["AUROC"] == "1.000"  # every right outcome rated above every wrong one
    general = {r["config"]: r for r in ob.general_table(records)}
    assert general["direct"]["p50 s"] == 3.0 and general["direct"]["p95 s"] == 9.0
    assert general["adaptive"]["p50 × direct"] == 0.67
    assert general["adaptive"]["searched past the probe"] == "0/1"
    out = CliRunner().invoke(importlib.import_module("bench").bench, ["owned", str(folder)])
    assert out.exit_code == 0 and "Confidence, right against wrong" in out.output
    weights = tmp_path / "confidence.json"  # rates declines 0.92, answers 0.08
    weights.write_text(json.dumps({"features": ["declined"], "coef": [5.0], "intercept": -2.5}))
    for r in rows:
        r["features"] = {"declined": float(bool(r["declined"]))}
    (folder / "results.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    rated = {
        r["id"]: r["confidence"] for r in ob.records(folder, weights) if r["config"] == "adaptive"
    }
    assert rated["u1"] == 0.92 and rated["a1"] == 0.08
    other = tmp_path / "other"  # a configuration run apart, read with the first as one set
    other.mkdir()
    (other / "results.jsonl").write_text(json.dumps(_record("full", "u1", "kb_simple")) + "\n")
    both = CliRunner().invoke(
        importlib.import_module("bench").bench, ["owned", f"{folder}+{other}"]
    )
    assert both.exit_code == 0 and "| full |" in both.output
    refused = CliRunner().invoke(importlib.import_module("bench").bench, ["owned", str(tmp_path)])
    assert refused.exit_code != 0 and "no results.jsonl" in refused.output
