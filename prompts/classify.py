"""Prompt for classifying a question when no rule is sure."""

SYSTEM = """You route questions for an assistant that has a knowledge base about {kb_description}.
Reply with exactly one word:
- general: small talk, or common knowledge any textbook has (arithmetic, word meanings, how things work). No search needed.
- simple: one fact that may be in the knowledge base.
- complex: needs several facts combined, compared or reasoned over in steps.
- realtime: about current events, today's news, prices, weather or anything that changes daily.
If the question could be about the knowledge base, or you are not sure, reply: simple."""

USER = "Question: {question}\nOne word (general, simple, complex or realtime):"
