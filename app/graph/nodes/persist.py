"""``persist``: the reduce side's write to the results database."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime

from app.graph.nodes.common import check_run_plan, check_same_corpus, thread_id_of
from app.graph.resources import Resources
from app.research.rounds import current_envelopes
from app.settings.config import RunContext
from state import ResearchState, delete_envelope

__all__ = ["persist"]


def persist(state: ResearchState, config: RunnableConfig, runtime: Runtime[RunContext], *,
            res: Resources, workers: Sequence[str]) -> dict[str, Any]:
    """Upsert every unpersisted envelope of the run in one transaction, remove the thread's
    other rows, and write back ``persisted=True, structured=None``: state shrinks and the
    database becomes the source of truth. Running it twice (a crash between its commit and its
    checkpoint) updates the same rows.

    The thread's rows are then exactly its current envelopes
    (:func:`app.research.rounds.current_envelopes`: its current plan and ``as_of``), and so is
    its ``envelopes`` channel, less the envelopes a review dropped (kept in state for the
    notes of a rerun): any other row and envelope is removed, whether its envelope was dropped
    at review (a time-travel replay that dropped one the first decision kept included), belongs
    to a plan replaced at review, to a worker this run does not have, or to another ``as_of``
    or topic the thread had before (a LangGraph Server client's next input, a Studio edit of
    ``as_of``). (Else a replaced plan's rows stayed; another ``as_of`` left 18 rows and 18
    envelopes for 9 tasks: ``tests/app/test_thread_input_change.py``.) A run without a thread
    (no checkpointer) only removes the rows it dropped: other such runs share its
    ``thread_id``, ``"-"``.

    Raises:
        app.research.plan_check.BadPlan: the plan or its routing cannot run (a state edit
            that skipped ``dispatch``, e.g. ``as_node="route"``), or was made for another topic
            than the state's (a topic edited after ``plan``, e.g. at the results review): no
            row is written or removed.
        app.errors.CorpusMismatch: a served run continues the thread on another corpus than
            its plan's: no row is written or removed."""
    check_run_plan(state, res, workers)
    check_same_corpus(state, res.context(runtime).corpus_name, res.served)
    current = current_envelopes(state)
    dropped = list(state.get("dropped") or [])
    thread_id = thread_id_of(config)
    keep = {e["envelope_id"] for e in current}
    stale = [e["envelope_id"] for e in state.get("envelopes") or []
             if e.get("envelope_id") not in keep and e.get("envelope_id") not in dropped]
    if thread_id == "-" and not dropped and not stale and all(e.get("persisted") for e in current):
        return {}
    with res.storage().results() as store:
        written = set(store.envelope_ids(thread_id=thread_id)) if thread_id != "-" else None
        pending = [e for e in current if _unwritten(e, written)]
        store.upsert(pending, thread_id=thread_id, topic=state["topic"])
        written = (written or set()) | {e["envelope_id"] for e in pending}
        dropped += [eid for eid in written if eid not in keep]
        store.delete(dropped, thread_id=thread_id)
    res.run(runtime).faults.at("persist-commit")
    if pending:
        runtime.stream_writer({"persisted": {"count": len(pending)}})
    notes = _earlier_rows_note(state, written)
    if not pending and not stale:
        return {"notes": notes} if notes else {}
    return {
        "notes": notes,
        "envelopes": [
            *({"envelope_id": e["envelope_id"], "persisted": True, "structured": None}
              for e in pending),
            *(delete_envelope(eid) for eid in stale),
        ]
    }


def _earlier_rows_note(state: ResearchState, written: set[str]) -> list[str]:
    """The note of a rerun's drop that removed rows an earlier run wrote (not only "not
    persisted"); one this run persisted before a state edit made it await the review again is
    said by that review's note (app.research.review.ask_results)."""
    own = {e["envelope_id"] for e in state.get("envelopes") or [] if e.get("persisted")}
    removed = [eid for eid in state.get("dropped") or [] if eid in written and eid not in own]
    return ([f"dropped at review: {len(removed)} row(s) an earlier run of the thread had "
             "written were removed from the results database"] if removed else [])


def _unwritten(envelope: dict[str, Any], written: set[str] | None) -> bool:
    """Whether ``persist`` writes ``envelope``: it is not marked persisted, or it is but the
    thread has no row of it (``written``: the thread's envelope ids; None, a run without a
    thread, trusts the mark) and it still holds what its row needs (an ok envelope's payload).
    ``persisted`` is state a client may edit: a Studio edit, or a thread's copy, marked
    envelopes persisted that no row held, and the run said ``ok``; one
    whose payload is gone is counted missing by the verdict
    (:func:`app.research.outcome.run_outcome`)."""
    if not envelope.get("persisted"):
        return True
    if written is None or envelope["envelope_id"] in written:
        return False
    return envelope.get("status") != "ok" or envelope.get("structured") is not None
