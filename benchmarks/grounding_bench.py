"""How long do the rule-based grounding check and the term extractor take per answer and chunk?

Answers of three sentences are built from groups of four chunks of the shared sets (SQuAD2 in
English, CMRC2018 in Chinese), about a thousand characters each: one sentence copied from the
first chunk and cited, one from the second with a citation out of range, one from the third left
uncited, so the check does its repairs too. Every answer and chunk is new to the caches; the
libraries (jieba's dictionary) are loaded by a warm-up group first.
"""

from __future__ import annotations

import re
import statistics
import time
from typing import Any

from adaptive_rag.core.grounding import check
from adaptive_rag.core.text import terms_of
from adaptive_rag.evaluation.data import eval_data_dir, read_jsonl

_SENTENCE = {
    "en": re.compile(r"[^.!?]{40,200}[.!?]"),
    "zh": re.compile(r"[^。！？\n]{12,120}[。！？]"),
}
_SETS = {"en": "squad2/corpus.jsonl", "zh": "cmrc2018/cmrc2018_dev500_corpus.jsonl"}


def _chunks(language: str, size: int) -> list[str]:
    """Return distinct windows of `size` characters over the set's texts joined end to end."""
    texts = [str(row["text"]) for row in read_jsonl(eval_data_dir() / _SETS[language])]
    joined = "\n\n".join(texts)
    return [
        joined[start : start + size]
        for offset in range(0, size, size // 4)
        for start in range(offset, len(joined) - size, size)
    ]


def _answer(language: str, group: list[str]) -> str | None:
    """Return a three-sentence answer over a group of chunks, or None if one has no sentence."""
    picked = [_SENTENCE[language].search(chunk) for chunk in group[:3]]
    if not all(picked):
        return None
    first, second, third = (m.group().strip() for m in picked if m)
    if language == "zh":
        return f"{first[:-1]}[1]{first[-1]}[7] {second}{third}"
    return f"{first[:-1]} [1]{first[-1]} [7] {second} {third}"


def _quantiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "p50 ms": round(statistics.median(ordered) * 1000, 2),
        "p95 ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 2),
        "max ms": round(ordered[-1] * 1000, 2),
    }


def measure(answers: int = 50, chunk_chars: int = 1000) -> list[dict[str, Any]]:
    """Per language: the time of check() per answer and of terms_of() per chunk."""
    rows: list[dict[str, Any]] = []
    terms_of("热身：加载 jieba 的词典。")  # loads jieba, which any text with Chinese in it needs
    for language in ("en", "zh"):
        chunks = _chunks(language, chunk_chars)
        groups = [chunks[i : i + 4] for i in range(0, len(chunks) - 3, 4)]
        cases = [(a, g) for g in groups if (a := _answer(language, g))][: answers + 1]
        check(cases[0][0], cases[0][1], "")  # warm-up: its texts are not timed
        checks: list[float] = []
        extracts: list[float] = []
        for answer, group in cases[1:]:
            start = time.perf_counter()
            check(answer, group, "")
            checks.append(time.perf_counter() - start)
        for chunk in chunks[-answers:]:
            start = time.perf_counter()
            terms_of(chunk)
            extracts.append(time.perf_counter() - start)
        rows.append(
            {"language": language, "step": "check (3 sentences, 4 chunks)", "n": len(checks)}
            | _quantiles(checks)
        )
        rows.append(
            {
                "language": language,
                "step": f"terms_of ({chunk_chars}-char chunk)",
                "n": len(extracts),
            }
            | _quantiles(extracts)
        )
    return rows
