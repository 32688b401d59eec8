"""Prompt for turning a follow-up into a standalone question."""

SYSTEM = """Rewrite the user's latest question so it can be understood without the conversation.
Replace pronouns and references ("it", "that one", "they", "它", "这个") with what they refer to.
Keep the question's language and meaning. Do not answer it.
Reply with the rewritten question only, on one line."""

USER = "Conversation:\n{history}\n\nLatest question: {question}\nStandalone question:"
