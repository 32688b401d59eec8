"""Whether a question's words meet a knowledge base's titles by meaning, across languages.

    python experiments/cross_language_owned.py eval-out/handbook

Ownership (core.question.owned) ties a question to the knowledge base when one of its words
stands in the title or a heading of a document found. A Chinese question over English pages
("加班费怎么算？" beside "Working Hours and Attendance > Overtime") shares no word with them. This
measures the obvious way across: embed each of the question's terms (e5's query side) and every
title and heading of the knowledge base (its passage side), and take the best cosine. For the
idea to work, the questions the knowledge base owns must sit above its general questions.

It reads the knowledge base an `eval run` of `traffic_handbook` built in RUN/kb and the set's
questions, and prints, per kind, each question's best cosine with the term and heading that
give it, and the range per kind.

With `--chunks`, it reads instead the whole question against the knowledge base's chunks (the
store's own vector search, the nearest chunk's cosine): whether a question about the knowledge
base's topics sits nearer its text than a question about the world, in either language.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "benchmarks" / "sets" / "handbook" / "handbook.jsonl"
KINDS = ("owned_unanswered", "general")


def headings(kb: Path) -> list[str]:
    """Return every title and 'title > section' heading of the run's knowledge base."""
    import chromadb

    client = chromadb.PersistentClient(str(kb))
    (name,) = [c.name for c in client.list_collections() if not c.name.endswith(".parents")]
    found: set[str] = set()
    for meta in client.get_collection(name).get(include=["metadatas"])["metadatas"] or []:
        title, section = str(meta.get("title") or ""), str(meta.get("section") or "")
        found |= {t for t in (title, f"{title} > {section}" if section else "") if t}
    return sorted(found)


def main() -> None:
    """Print each question's best term-to-heading cosine, by kind."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="an `eval run traffic_handbook` folder")
    parser.add_argument("--chunks", action="store_true", help="whole question against chunks")
    args = parser.parse_args()
    if args.chunks:
        nearest_chunks(args.run)
        return
    from adaptive_rag.core.text import terms_of
    from adaptive_rag.knowledge.embeddings import load_embeddings

    heads = headings(args.run / "kb")
    model = load_embeddings("auto")
    table = np.array(model.embed_documents(heads))
    table /= np.linalg.norm(table, axis=1, keepdims=True)
    rows = [json.loads(line) for line in SET.read_text().splitlines() if line.strip()]
    ranges: dict[str, list[float]] = {}
    for row in rows:
        kind = row["question_type"]
        terms = terms_of(row["question"])
        words = sorted(terms.words | terms.names)
        if kind not in KINDS or not words:
            continue
        vectors = np.array([model.embed_query(w) for w in words])
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        cosines = vectors @ table.T
        i, j = np.unravel_index(int(cosines.argmax()), cosines.shape)
        best = float(cosines.max())
        label = f"{kind}/{row.get('language', '')}/{row.get('asked', '')}".rstrip("/")
        ranges.setdefault(label, []).append(best)
        print(f"{label}\t{best:.3f}\t{words[i]} ~ {heads[j]}\t{row['question']}")
    print()
    for label, values in sorted(ranges.items()):
        print(f"{label}: n {len(values)}, best cosine {min(values):.3f} to {max(values):.3f}")


def nearest_chunks(run: Path) -> None:
    """Print, per kind and language, the range of each question's nearest chunk's cosine."""
    from adaptive_rag.knowledge.opening import open_store

    settings = json.loads((run / "settings.json").read_text())
    (name,) = [key.replace("_", "-") for key in settings]  # the set's collection
    store = open_store(str(run / "kb"), name)
    rows = [json.loads(line) for line in SET.read_text().splitlines() if line.strip()]
    ranges: dict[str, list[float]] = {}
    for row in rows:
        found = store.vector_search(row["question"], 1)
        label = f"{row['question_type']}/{row.get('language', '')}"
        ranges.setdefault(label, []).append(found[0][1] if found else 0.0)
    for label, values in sorted(ranges.items()):
        values.sort()
        print(
            f"{label}: n {len(values)}, nearest chunk's cosine {values[0]:.3f} to"
            f" {values[-1]:.3f}, median {values[len(values) // 2]:.3f}"
        )


if __name__ == "__main__":
    main()
