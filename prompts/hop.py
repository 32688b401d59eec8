"""Task for one step of the multi-step path (self-ask / IRCoT): note the bridge fact, plan the next."""

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
