"""Prompts for optional query expansion before retrieval (multi-query and HyDE)."""

MULTI_QUERY_SYSTEM = """Write {n} different search queries that would find documents answering the question: use other words, synonyms and the key names. Keep the question's language.
Reply with JSON only: {{"queries": ["...", "..."]}}"""

HYDE_SYSTEM = """Write a short passage (two or three sentences) that could appear in a document answering the question. Invent plausible details if you must; it is only used to search. Keep the question's language."""

USER = "Question: {question}"
