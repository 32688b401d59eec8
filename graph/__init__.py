"""The graph's contract (state, context), its wiring (edges) and its builder."""
