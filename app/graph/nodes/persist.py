"""``persist``: the reduce side's write to the results database."""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime

from app.graph.nodes.common import thread_id_of
from app.graph.resources import Resources
from app.research.rounds import current_envelopes
from app.settings.config import RunContext
from state import ResearchState

__all__ = ["persist"]


def persist(state: ResearchState, config: RunnableConfig, runtime: Runtime[RunContext], *,
            res: Resources) -> dict[str, Any]:
    """Upsert every unpersisted envelope of the run in one transaction, remove the rows of
    envelopes dropped at review, and write back ``persisted=True, structured=None``: state
    shrinks and the database becomes the source of truth. Running it twice (a crash between
    its commit and its checkpoint) updates the same rows; a time-travel replay that dropped an
    envelope the first decision kept removes its row."""
    pending = [e for e in current_envelopes(state) if not e.get("persisted")]
    dropped = list(state.get("dropped") or [])
    if not pending and not dropped:
        return {}
    thread_id = thread_id_of(config)
    with res.storage().results() as store:
        store.upsert(pending, thread_id=thread_id, topic=state["topic"])
        store.delete(dropped, thread_id=thread_id)
    res.run(runtime).faults.at("persist-commit")
    if not pending:
        return {}
    runtime.stream_writer({"persisted": {"count": len(pending)}})
    return {
        "envelopes": [
            {"envelope_id": e["envelope_id"], "persisted": True, "structured": None}
            for e in pending
        ]
    }
