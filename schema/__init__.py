"""The graph's typed state and runtime Context: what nodes read and write, below the nodes."""
