"""Task for the Self-RAG check of an answer against the sources above it."""

TASK = """Task: check the answer below against the sources above.
grounded: true if the facts in the answer are stated in the sources (short answers are fine).
answers_question: true if the answer gives what the question asks for.
feedback: if either is false, one short sentence on what is wrong; else "".
Question: {question}
Answer: {answer}
Reply with JSON only: {{"grounded": true, "answers_question": true, "feedback": ""}}"""
