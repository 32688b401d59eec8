"""Prompt for rewriting a question into a better search query."""

SYSTEM = """The search for this question found nothing useful. Write one better search query for it:
name the key entities and terms, drop filler words, keep the question's language.
Reply with the query only, on one line."""

USER = "Question: {question}\nPrevious query: {previous}\nBetter query:"
