"""What one step of the multi-step path (self-ask / IRCoT) shows the model.

The sources, the facts found so far, and the task of noting this step's fact and planning the
next.
"""

from __future__ import annotations

from collections.abc import Sequence

from adaptive_rag.core.text import Language
from adaptive_rag.prompts.reading import reading_messages, worked_out
from adaptive_rag.schema.reading import describe_hops
from adaptive_rag.schema.values import Hop
from langchain_core.documents import Document
from langchain_core.messages import BaseMessage

FIELDS = {
    "finding": "the fact this step found in the sources, in a few words, naming names"
    ' ("" if the sources do not say)',
    "missing": "what the whole question still needs that the facts found so far do not state,"
    ' in a few words ("" if nothing is missing)',
    "next_query": "if not answerable: a search for the next missing fact, using the names found"
    ' so far; else ""',
}
"""What each text field of the hop's reply holds, as the reply format describes it."""


def _quoted(text: str) -> str:
    """Quote a description as a JSON string inside the format template."""
    return '"' + text.replace('"', '\\"').replace("{", "{{").replace("}", "}}") + '"'


TASK = (
    """Task: the question below is answered in steps. This step searched for: {query}
{facts}
Read the sources above and reply with JSON only:
{{"finding": """
    + _quoted(FIELDS["finding"])
    + """,
"missing": """
    + _quoted(FIELDS["missing"])
    + """,
"answerable": true if nothing is missing, else false,
"next_query": """
    + _quoted(FIELDS["next_query"])
    + """}}
Write the finding and the query in the question's language.
Question: {question}"""
)

FACTS = "Facts found in earlier steps:\n{listing}"

NO_FACTS = "This is the first step."


def facts_so_far(hops: Sequence[Hop]) -> str:
    """List earlier hops' searches and findings for the next hop's prompt."""
    return FACTS.format(listing=describe_hops(hops)) if hops else NO_FACTS


def messages(
    docs: list[Document], query: str, hops: Sequence[Hop], question: str, language: Language
) -> list[BaseMessage]:
    """Return the sources, then what arithmetic works out from them, then this step's task."""
    task = TASK.format(query=query, facts=facts_so_far(hops), question=question)
    return reading_messages(docs, worked_out(docs, question, language) + task)
