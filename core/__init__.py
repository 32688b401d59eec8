"""The bottom layer: rules and fitted models over text, with no model call and no graph types.

Four packages, each used through what its `__init__` exports: `text` (terms, numbers, entities,
language, citations, document keys), `question` (the route's and the question's rules),
`grounding` (an answer checked against its sources, and its text's fixes) and `judges` (the
fitted models and their weights). Access, bridges, cache, cancel, environment, failures and
secrets are single modules.
"""
