"""What the graph's nodes share, so that no node imports another node.

Model calls with their cost and typed failures, the search step, grading a search's sources, and
the sources an answer lists.
"""
