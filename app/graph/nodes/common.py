"""Small helpers the nodes share."""

from __future__ import annotations

from langchain_core.runnables import RunnableConfig

__all__ = ["thread_id_of"]


def thread_id_of(config: RunnableConfig) -> str:
    """The run's ``thread_id``; ``"-"`` for a run without a checkpointer (no thread)."""
    return (config.get("configurable") or {}).get("thread_id") or "-"
