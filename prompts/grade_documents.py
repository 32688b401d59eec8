"""Task for grading all retrieved documents in one call (CRAG evaluator), after the sources."""

# Labels, not 0-10 scores: on SQuAD2 gold documents the 1.5B local model kept the gold document
# 14/15 times with labels and 6/15 with numeric scores (docs/benchmarks.md).
TASK = """Task: judge whether each source above helps answer the question.
For each source, in order, answer:
- "yes": it contains the answer or facts needed for it
- "partial": it is about the same subject but lacks the answer
- "no": it is about something else
Question: {question}
Reply with JSON only: {{"grades": ["yes", "no", ...]}} with {count} grades, one per source."""
