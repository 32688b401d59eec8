"""What answer_general asks the model, and how its answer is labelled.

The model is asked as the no-retrieval answer is (prompts.generate's direct prompt): no document
is shown, so the search's sources cannot mislead it.
"""

from adaptive_rag.prompts.generate import direct_messages as messages

__all__ = ["LABEL", "messages"]  # messages: the question alone, as a no-retrieval answer is asked

LABEL = {
    "en": "(Answered from general knowledge, not from your documents.)",
    "zh": "（此回答来自一般知识，而非你的文档。）",
}
"""The notice under an answer from the model's own knowledge, in the answer's language."""
