"""The traffic-mix sets: a fixed mix of assistant traffic over one knowledge base.

`traffic_mix` (benchmarks/sets/traffic_mix/traffic_mix.jsonl) asks 40% questions that need no
documents and 60% about a knowledge base made of the shared corpora together; `traffic_company`
(company.jsonl) asks the same general questions and others over the bundled sample knowledge base
(examples/sample_kb), one document per file. `traffic_handbook`
(benchmarks/sets/handbook/handbook.jsonl) asks about a made-up company's own handbook, IT rules,
customer policies and products (its kb/ folder), many of them things the documents do not say.
The README.md beside each set says how it was made.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from adaptive_rag.evaluation.data import ROOT, eval_data_dir, read_jsonl

MIX_DIR = ROOT / "benchmarks" / "sets" / "traffic_mix"
SAMPLE_KB = ROOT / "examples" / "sample_kb"
HANDBOOK_DIR = ROOT / "benchmarks" / "sets" / "handbook"
HANDBOOK_KB = HANDBOOK_DIR / "kb"
ZH_BRIDGE_CORPUS = ROOT / "benchmarks" / "sets" / "zh_bridge" / "corpus.jsonl"
SHARED_CORPORA = (
    ("squad2", "corpus.jsonl"),
    ("cmrc2018", "cmrc2018_dev500_corpus.jsonl"),
    ("multihop_rag", "evidence_corpus.jsonl"),
)
MIX_FILES = {
    "traffic_mix": "traffic_mix.jsonl",
    "traffic_company": "company.jsonl",
    "traffic_handbook": "handbook.jsonl",
}
MIX_DIRS = {"traffic_handbook": HANDBOOK_DIR}
"""The folder of a set that is not in MIX_DIR (it holds the set's file and its build.py)."""


def corpus_files() -> list[Path]:
    """Return the corpus files whose union is traffic_mix's knowledge base, in a fixed order."""
    base = eval_data_dir()
    return [base / folder / name for folder, name in SHARED_CORPORA] + [ZH_BRIDGE_CORPUS]


def union_corpus(paths: list[Path]) -> list[dict[str, Any]]:
    """Read the corpora as one; a doc_id two of them share is an error, never silently merged."""
    seen: dict[str, Path] = {}
    docs: list[dict[str, Any]] = []
    for path in paths:
        for doc in read_jsonl(path):
            doc_id = str(doc["doc_id"])
            if doc_id in seen:
                raise ValueError(f"doc_id {doc_id!r} is in both {seen[doc_id]} and {path}")
            seen[doc_id] = path
            docs.append(doc)
    return docs


def traffic_corpus() -> list[dict[str, Any]]:
    """Return traffic_mix's knowledge base: the shared corpora and zh_bridge's, together."""
    return union_corpus(corpus_files())


def folder_corpus(folder: Path = SAMPLE_KB) -> list[dict[str, Any]]:
    """Return one document per markdown file: doc_id its relative path, title its first heading."""
    docs = []
    for path in sorted(folder.rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        heading = re.search(r"^#\s+(.+?)\s*$", text, re.MULTILINE)
        title = heading.group(1) if heading else path.stem
        docs.append({"doc_id": path.relative_to(folder).as_posix(), "title": title, "text": text})
    if not docs:
        raise FileNotFoundError(f"no markdown files in {folder}")
    return docs


def mix_records(name: str) -> list[dict[str, Any]]:
    """Read a mix set's records as written (traffic_mix, traffic_company or traffic_handbook)."""
    folder = MIX_DIRS.get(name, MIX_DIR)
    path = folder / MIX_FILES[name]
    if not path.is_file():
        raise FileNotFoundError(f"{path} not found: build it with {folder / 'build.py'}")
    return read_jsonl(path)


def mix_corpus(name: str) -> list[dict[str, Any]]:
    """Return a mix set's knowledge base."""
    if name == "traffic_mix":
        return traffic_corpus()
    if name == "traffic_handbook":
        return folder_corpus(HANDBOOK_KB)
    return folder_corpus()
