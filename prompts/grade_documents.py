"""Task for grading all retrieved documents in one call (CRAG evaluator), after the sources."""

# Labels, not 0-10 scores: a small model keeps the gold document far more often with labels
# (docs/decisions.md).
TASK = """Task: judge whether each source above helps answer the question.
For each source, in order, answer:
- "yes": it contains the answer or facts needed for it
- "partial": it is about the same subject but lacks the answer
- "no": it is about something else
Question: {question}
Reply with JSON only: {{"grades": ["yes", "no", ...]}} with {count} grades, one per source."""
