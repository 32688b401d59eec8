"""The graph's wiring: edge functions, the builder, and the agent as a tool.

The state and context the graph is built over are below it, in schema/.
"""
