"""The graph served by LangGraph Server and Studio, and its auth."""
