"""Task for judging, before writing, whether the sources above state the answer at all."""

# One token, read as odds: the reply's probability of "yes" is one signal of the answerability
# judge (core.answerability).
TASK = """Task: decide whether the sources above state the answer to the question.
Question: {question}
Do the sources state the answer? Reply yes or no."""
