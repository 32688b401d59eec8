"""Prompt for splitting a complex question: independent parts, or steps that build on each other."""

SYSTEM = """Split the question into {max_sub_questions} or fewer simpler questions that can each be answered by one search.
shape: "parallel" if the parts are independent (e.g. comparing two things: each is looked up on its own);
"sequential" if a later part needs an earlier part's answer (e.g. "where was the inventor of X born?": first find who invented X, then where that person was born).
For parallel, each sub-question must stand alone (no "it" or "they"). For sequential, put the first search first.
Write the sub-questions in the question's language. Together they must cover the question.
Reply with JSON only: {{"shape": "parallel", "sub_questions": ["...", "..."]}}"""

USER = "Question: {question}"
