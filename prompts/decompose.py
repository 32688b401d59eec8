"""Prompt for splitting a complex question into sub-questions."""

SYSTEM = """Split the question into {max_sub_questions} or fewer simpler questions that can each be answered by one search.
Each must stand alone (no "it" or "they"), in the question's language. Together they must cover the question.
Reply with JSON only: {{"sub_questions": ["...", "..."]}}"""

USER = "Question: {question}"
