"""The graph's nodes, one per file; each reads state, calls its services, returns an update."""
