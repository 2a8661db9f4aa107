"""Reducers: how a LangGraph channel folds the writes it receives.

A reducer is the ``op`` in ``Annotated[T, op]`` on a state key. LangGraph calls it once per write,
``value = op(value, write)``, in task-path order within a superstep, starting from the channel's
default (``list()`` for a list). It also calls it again when it replays pending writes (on resume
and in ``get_state``), so every reducer here is pure: it never mutates its inputs and the same
inputs always give the same result.

The main one is :func:`envelope_reducer`, the upsert that makes a task's envelope written again
(persist's write-back, a re-dispatch round, a rerun of the thread) idempotent; its working steps
and the key-index cache of its rule 6 live in :mod:`state.fold`.
The small general-purpose reducers LangGraph users commonly reach for live in
:mod:`state.reducer_catalog` and are re-exported here, so ``state.reducers`` lists them all.

Source: https://langchain-ai.github.io/langgraph/concepts/low_level/#reducers and LangGraph's
``langgraph/graph/message.py`` (``add_messages``), whose id-keyed upsert this generalizes.
"""

from __future__ import annotations

from typing import Any

from state.envelope import envelope_key
from state.fold import DELETE, RESET, apply_write, as_entries, fingerprint, finish_fold, start_fold
from state.reducer_catalog import (
    add_count,
    add_counts,
    capped_list,
    concat_lists,
    dedupe_extend,
    keep_latest,
    keep_max,
    keep_min,
    merge_dicts,
)

__all__ = [
    "DELETE",
    "add_count",
    "add_counts",
    "capped_list",
    "concat_lists",
    "dedupe_extend",
    "delete_envelope",
    "envelope_reducer",
    "keep_latest",
    "keep_max",
    "keep_min",
    "merge_dicts",
    "reset_envelopes",
]


def delete_envelope(envelope_id: str) -> dict[str, Any]:
    """Return the write that removes one envelope from the ``envelopes`` channel.

    It is a plain dict (``{"envelope_id": ..., "__delete__": True}``) so it checkpoints cleanly as
    a pending write. Deleting an id that is not present is a no-op. To reset the whole channel,
    write :func:`reset_envelopes` (``Overwrite([])`` also empties it, but drops every other write
    to the channel in the same superstep: a worker's envelope written alongside is lost).

    Args:
        envelope_id: the id to remove.

    Example:
        >>> envelope_reducer([{"envelope_id": "a", "worker": "w"}], delete_envelope("a"))
        []

    Source of the idea: ``RemoveMessage`` in ``langgraph/graph/message.py``.
    """
    return {"envelope_id": envelope_id, DELETE: True}


def reset_envelopes(current: Any) -> dict[str, Any]:
    """Return the write that empties the ``envelopes`` channel of what the writing node saw.

    Unlike ``langgraph.types.Overwrite([])``, it loses no concurrent write: ``Overwrite`` on a
    reducer channel replaces the value and drops every other write to it in the same superstep,
    so a worker's envelope written alongside is silently gone. This write removes exactly the
    envelopes in ``current`` (the node's view, from before the superstep) that are still as the
    node saw them; an envelope that another task of the same superstep added or rewrote is
    kept, whatever order LangGraph applies the writes in (task-path order, not completion).

    Args:
        current: the channel value the node read (``state["envelopes"]``): a list of envelope
            dicts, or None.

    Example:
        >>> old = [{"envelope_id": "a", "worker": "w"}]
        >>> envelope_reducer(envelope_reducer(old, reset_envelopes(old)),
        ...                  {"envelope_id": "b", "worker": "w"})
        [{'envelope_id': 'b', 'worker': 'w'}]
        >>> envelope_reducer(envelope_reducer(old, {"envelope_id": "b", "worker": "w"}),
        ...                  reset_envelopes(old))  # the other order: the same result
        [{'envelope_id': 'b', 'worker': 'w'}]
    """
    return {RESET: {envelope_key(e): fingerprint(e) for e in as_entries(current)}}


def envelope_reducer(existing: Any, new: Any) -> list[dict[str, Any]]:
    """Upsert envelopes by ``envelope_id`` (falling back to ``worker:as_of``).

    Register it as ``envelopes: Annotated[list[dict], envelope_reducer]``.

    Rules (docs/architecture.md, "The reducer rules"):
      1. The key is :func:`state.envelope_key`: ``envelope_id``; when missing or empty,
         ``make_envelope_id(worker, task_key, as_of)`` if the entry has a ``task_key`` (the id
         the worker node wrapper would have stamped), else ``f"{worker}:{as_of}"``; an entry
         with neither raises ``ValueError`` naming the entry. Every envelope is stored with its
         key as its ``envelope_id``: an envelope written without one gets it here, in the
         channel, before any node (persist, the results store) reads it.
      2. Shallow field-wise merge, later wins: a field absent from the update keeps its old value,
         a field explicitly set to None becomes None (how persist drops ``structured``).
      3. Each key appears once, in first-seen order.
      4. Inputs are never mutated. ``None`` on either side is empty; one envelope (dict or
         ``Envelope``) is accepted as well as a list; ``Envelope`` models are stored as dicts.
      5. ``delete_envelope(id)`` removes one envelope; ``reset_envelopes(state["envelopes"])``
         empties the channel of what the writer saw, keeping a concurrent worker's write.
         (``Overwrite([])``, handled by LangGraph's channel before the reducer is called, also
         resets it, but drops every other write to the channel in the same superstep.)
      6. Per call, the work is one list copy (plus one C-level identity check of the list
         against a private snapshot) and the work for the new entries: the key index of the
         value it returns is cached and reused when that same, unchanged list comes back as
         ``existing``, so folding the N writes of an N-wide ``Send`` fan-out costs N list copies
         (like ``operator.add``), not N index rebuilds. Any other ``existing`` (restored from a
         checkpoint, an older value, a list changed in place) is indexed afresh: correct,
         O(len) once. The one limit: a stored dict whose ``envelope_id`` was changed in place
         is not seen (write ``delete_envelope`` and the new envelope instead; see the comment
         on the cache in :mod:`state.fold`).
      7. Rounds: an update carrying a lower ``round`` (an int) than the stored envelope's is a
         stale echo (a subgraph handing back its old copy, a replay of an earlier round) and
         changes nothing; an update with the same or a higher round merges by rule 2; an update
         without ``round`` (persist's write-back ``{envelope_id, persisted, structured}``)
         merges as before. A ``round`` that is not an int (``1.0``, ``None``, ``"3"``, ``True``:
         bool is no int here) is no round: the update is judged as carrying none, and its
         ``round`` field is dropped, so it never replaces the stored round (which would turn
         the rule off for that envelope). Only an explicit round counts:
         ``Envelope.to_state()`` leaves out a round the model only defaulted. So a superstep's
         writes of one envelope with different rounds give the same result in any fold order
         (LangGraph folds them in task-path order, so the stale echo used to win when its
         writer's name sorted later), provided
         they carry the same fields, as every worker's full envelope does. It relies on rounds
         only increasing within a thread (docs/architecture.md, "The reducer rules").
         Deletion and reset ignore rounds.
      8. An error never replaces an ok result: an update with ``status: "error"`` to a stored
         ok envelope (no status reads as ok) keeps every field of the result and takes only
         the error's ``round``, recording the failed attempt as ``kept: {"round": the result's
         round, "error": the attempt's error}`` (:data:`state.KEPT`; the task still counts as
         failed, :func:`state.attempt_failed`). An ok result of a later round replaces it and
         removes ``kept``; one of a lower round than a stored error (or than the kept
         envelope's failed attempt) is the result kept under that error, so any fold order of
         the same writes gives one envelope. An update that carries ``kept`` itself (a
         subgraph's copy) merges by rules 2 and 7; persist's write-back (no status) merges as
         before. Folding a batch again over its own result changes nothing when each write
         carrying a ``status`` is a whole envelope, as workers write them; a partial status
         write is the stated limit (docs/architecture.md, rule 8).

    Args:
        existing: the channel's current value: a list of envelope dicts, or None.
        new: the write: one envelope or a list of them (dicts or ``Envelope`` models), or None.

    Returns:
        A new list of envelope dicts (the stored dicts are never mutated later, only replaced).

    Raises:
        ValueError: an entry has no usable key.
        TypeError: an entry is not a dict or ``Envelope``.

    Example:
        >>> first = {"envelope_id": "e1", "worker": "w", "as_of": "2026-11-30",
        ...          "structured": {"x": 1}, "persisted": False}
        >>> state = envelope_reducer([], [first])
        >>> state = envelope_reducer(state, {"envelope_id": "e1", "persisted": True,
        ...                                  "structured": None})
        >>> [(e["envelope_id"], e["persisted"], e["structured"]) for e in state]
        [('e1', True, None)]
    """
    updates = as_entries(new)
    fold = start_fold(existing)
    if fold is None:  # a hand-made value with repeated keys: fold it to one entry per key first
        return envelope_reducer(envelope_reducer(None, as_entries(existing)), updates)
    for update in updates:
        apply_write(fold, update)
    return finish_fold(fold)
