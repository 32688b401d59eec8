"""Model and web providers: chat models (hosted or embedded) and web search; no graph types."""
