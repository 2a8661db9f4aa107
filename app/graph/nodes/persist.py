"""``persist``: the reduce side's write to the results database."""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime

from app.graph.nodes.common import check_same_corpus, thread_id_of
from app.graph.resources import Resources
from app.research.rounds import current_envelopes
from app.settings.config import RunContext
from state import ResearchState

__all__ = ["persist"]


def persist(state: ResearchState, config: RunnableConfig, runtime: Runtime[RunContext], *,
            res: Resources) -> dict[str, Any]:
    """Upsert every unpersisted envelope of the run in one transaction, remove the thread's
    other rows, and write back ``persisted=True, structured=None``: state shrinks and the
    database becomes the source of truth. Running it twice (a crash between its commit and its
    checkpoint) updates the same rows.

    The thread's rows of the run's ``as_of`` (another ``as_of`` is other work) are then
    exactly its current envelopes (:func:`app.research.rounds.current_envelopes`): any other
    row is removed, whether its envelope was dropped at review (a time-travel replay that
    dropped one the first decision kept included), belongs to a plan replaced at review, or to
    a worker this run does not have. (Found by a new-user trial: a replaced plan's rows stayed;
    ``inspect`` counted them, the summary did not.) A run without a thread (no checkpointer)
    only removes what it dropped: other such runs share its ``thread_id``, ``"-"``."""
    check_same_corpus(state, res.context(runtime).corpus_name, res.served)
    current = current_envelopes(state)
    pending = [e for e in current if not e.get("persisted")]
    dropped = list(state.get("dropped") or [])
    thread_id = thread_id_of(config)
    if not pending and not dropped and thread_id == "-":
        return {}
    with res.storage().results() as store:
        store.upsert(pending, thread_id=thread_id, topic=state["topic"])
        if thread_id != "-":
            keep = {e["envelope_id"] for e in current}
            dropped += [eid for eid in store.envelope_ids(thread_id=thread_id,
                                                          as_of=state["as_of"])
                        if eid not in keep]
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
