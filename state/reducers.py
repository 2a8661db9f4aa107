"""Reducers: how a LangGraph channel folds the writes it receives.

A reducer is the ``op`` in ``Annotated[T, op]`` on a state key. LangGraph calls it once per write,
``value = op(value, write)``, in task-path order within a superstep, starting from the channel's
default (``list()`` for a list). It also calls it again when it replays pending writes (on resume
and in ``get_state``), so every reducer here is pure: it never mutates its inputs and the same
inputs always give the same result.

The main one is :func:`envelope_reducer`, the upsert that makes retries, resumes and re-dispatches
idempotent. The small general-purpose reducers LangGraph users commonly reach for live in
:mod:`state.reducer_catalog` and are re-exported here, so ``state.reducers`` lists them all.

Source: https://langchain-ai.github.io/langgraph/concepts/low_level/#reducers and LangGraph's
``langgraph/graph/message.py`` (``add_messages``), whose id-keyed upsert this generalizes.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from state.envelope import Envelope, envelope_key
from state.reducer_catalog import (
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

DELETE = "__delete__"
"""Field that marks an envelope write as a deletion; see :func:`delete_envelope`."""

RESET = "__reset__"
"""Field that marks a write as a reset of the channel; see :func:`reset_envelopes`."""


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


def _fingerprint(entry: Mapping[str, Any]) -> str:
    """A digest of an envelope's content (same content, same digest)."""
    text = json.dumps(entry, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


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
    return {RESET: {envelope_key(e): _fingerprint(e) for e in _as_entries(current)}}


# The key index of the latest value of each envelope channel, so the next call need not rebuild
# it. Keyed by ``id(value)`` and holding a strong reference to ``value`` (so the id cannot be
# reused while cached), a private snapshot of its items and the ``{key: position}`` index. Taking
# an entry removes it: once a newer value is derived from a list, that list no longer owns the
# index, and folding it again (an older value, a replayed write) rebuilds. Values restored from a
# checkpoint are new objects, so they also rebuild, once. A list the caller changed in place
# (appended to, shortened, an item replaced or reordered) no longer equals its snapshot, so it
# rebuilds too: the check is one C-level pass comparing item identities, cheaper than the list
# copy. A stored dict whose other fields were changed in place is the same dict either way.
#
# So the cache gives the result a fold without it gives, with one stated limit: it trusts that
# a stored dict keeps its ``envelope_id`` (every stored envelope has one, see rule 1). A node that
# changes ``envelope_id`` in place on a dict of the channel, instead of writing
# ``delete_envelope(old)`` and the envelope under its new id, can make the next fold keep the new
# id twice, where a fold without the cache would merge the two. The test that pins this limit:
# tests/state/test_envelope_reducer_cache.py::test_an_in_place_id_change_is_the_caches_stated_limit
# Checking every id on every call would be a Python-level pass per write: the quadratic cost the
# cache exists to avoid (scripts/bench_reducer.py). Bounded: one entry per channel being folded
# at the same time, oldest evicted first.
_INDEX_SLOTS = 32
_index_cache: dict[int, tuple[list, list, dict[str, int]]] = {}
_index_lock = threading.Lock()


def _take_index(existing: Any) -> tuple[list, dict[str, int]] | None:
    """Return (and remove) the snapshot and key index of ``existing``, if still valid."""
    with _index_lock:
        hit = _index_cache.pop(id(existing), None)
    if hit is None or hit[0] is not existing:
        return None
    try:
        unchanged = hit[1] == existing  # identical items compare without calling __eq__
    except Exception:  # a replaced item whose values refuse ==: treat the list as changed
        unchanged = False
    if not unchanged:
        return None  # the list was changed in place since it was returned
    return hit[1], hit[2]


def _keep_index(value: list, snapshot: list, positions: dict[str, int]) -> None:
    with _index_lock:
        while len(_index_cache) >= _INDEX_SLOTS:
            _index_cache.pop(next(iter(_index_cache)))
        _index_cache[id(value)] = (value, snapshot, positions)


def _as_entries(value: Any) -> list[dict[str, Any]]:
    """Normalize one side of a reducer call to a list of dicts (no copies of the dicts)."""
    if value is None:
        return []
    if isinstance(value, (dict, BaseModel)):
        value = [value]
    elif not isinstance(value, (list, tuple)):
        raise TypeError(
            f"envelopes must be a dict, an Envelope, or a list of them; got {type(value).__name__}"
        )
    out: list[dict[str, Any]] = []
    for item in value:
        if isinstance(item, Envelope):
            out.append(item.to_state())
        elif isinstance(item, BaseModel):
            dumped = item.model_dump(mode="json")
            if "round" not in item.model_fields_set:  # rule 7: only an explicit round counts
                dumped.pop("round", None)
            out.append(dumped)
        elif isinstance(item, dict):
            out.append(item)
        else:
            raise TypeError(f"an envelope must be a dict or an Envelope, got {item!r}")
    return out


def _round_of(entry: Mapping[str, Any]) -> int | None:
    """The entry's explicit dispatch ``round`` (an int, not a bool), or None."""
    value = entry.get("round")
    return value if type(value) is int else None


def _is_stale(update: Mapping[str, Any], stored: Mapping[str, Any]) -> bool:
    """True when ``update`` carries a lower ``round`` than ``stored`` (rule 7)."""
    new, old = _round_of(update), _round_of(stored)
    return new is not None and old is not None and new < old


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
         on the cache).
      7. Rounds: an update carrying a lower ``round`` (an int) than the stored envelope's is a
         stale echo (a subgraph handing back its old copy, a replay of an earlier round) and
         changes nothing; an update with the same or a higher round merges by rule 2; an update
         without ``round`` (persist's write-back ``{envelope_id, persisted, structured}``)
         merges as before. Only an explicit round counts: ``Envelope.to_state()`` leaves out a
         round the model only defaulted. So a superstep's writes of one envelope with different
         rounds give the same result in any fold order (LangGraph folds them in task-path
         order, so the stale echo used to win when its writer's name sorted later), provided
         they carry the same fields, as every worker's full envelope does. It relies on rounds
         only increasing within a thread (docs/architecture.md, "The reducer rules").
         Deletion and reset ignore rounds.

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
    updates = _as_entries(new)
    fold = _start_fold(existing)
    if fold is None:  # a hand-made value with repeated keys: fold it to one entry per key first
        return envelope_reducer(envelope_reducer(None, _as_entries(existing)), updates)
    for update in updates:
        _apply_write(fold, update)
    return _finish_fold(fold)


@dataclass(slots=True)
class _Fold:
    """The working state of one :func:`envelope_reducer` call (owned by that call alone).

    ``result`` is the new list (``None`` marks a removed slot until :func:`_finish_fold`
    compacts it), ``positions`` maps each key to its slot, ``snapshot`` is the cached private
    copy of ``result`` kept in step with it (None when it must be rebuilt at the end), and
    ``deleted`` says a slot was removed.
    """

    result: list[dict[str, Any] | None]
    positions: dict[str, int]
    snapshot: list | None
    deleted: bool = False


def _start_fold(existing: Any) -> _Fold | None:
    """Copy ``existing`` and its key index, reusing the cached index when it is still valid.

    Returns None for a hand-made value with repeated keys (the caller folds it first). Entries
    with no ``envelope_id`` are stored under their key (rule 1), as new dicts.

    Example:
        >>> _start_fold([{"worker": "w", "as_of": "d"}]).result
        [{'worker': 'w', 'as_of': 'd', 'envelope_id': 'w:d'}]
        >>> _start_fold([{"envelope_id": "a"}, {"envelope_id": "a"}]) is None
        True
    """
    taken = _take_index(existing) if type(existing) is list else None
    if taken is not None:
        snapshot, positions = taken
        return _Fold(list(existing), positions, snapshot)  # the one list copy
    # no valid cached index: a restored, older, hand-made or mutated value; index it once
    result = _as_entries(existing)  # a new list
    keys = [envelope_key(entry) for entry in result]
    positions = {key: i for i, key in enumerate(keys)}
    if len(positions) != len(result):
        return None
    for i, entry in enumerate(result):
        if not entry.get("envelope_id"):  # a hand-made value: store it under its key
            result[i] = {**entry, "envelope_id": keys[i]}
    return _Fold(result, positions, None)


def _apply_write(fold: _Fold, update: dict[str, Any]) -> None:
    """Apply one write to ``fold``: a reset, a deletion, an insert or a merge (rules 2, 5, 7)."""
    if isinstance(update.get(RESET), dict):
        _apply_reset(fold, update[RESET])
        return
    key = envelope_key(update)
    pos = _position_of(fold, key)
    if update.get(DELETE):
        if pos is not None:
            _remove(fold, key, pos)
    elif pos is None:
        _insert(fold, key, _stored_form(update, key))
    elif not _is_stale(update, fold.result[pos]):  # rule 7: an older round's echo is skipped
        _replace(fold, pos, _merged(fold.result[pos], update, key))


def _apply_reset(fold: _Fold, seen: Mapping[str, str]) -> None:
    """Remove each envelope of ``seen`` (``{key: digest}``) still as the writer saw it (rule 5)."""
    for key, digest in seen.items():
        pos = fold.positions.get(key)
        if pos is None:
            continue
        stored = fold.result[pos]
        if stored is not None and envelope_key(stored) == key and _fingerprint(stored) == digest:
            _remove(fold, key, pos)


def _position_of(fold: _Fold, key: str) -> int | None:
    """The slot of ``key`` in ``fold``, or None; re-indexes the list if the index disagrees.

    The index disagrees only when a stored dict's key was changed in place by a caller (see the
    comment on the cache); values nobody mutated never take that path.
    """
    pos = fold.positions.get(key)
    if pos is not None and (fold.result[pos] is None or envelope_key(fold.result[pos]) != key):
        fold.positions = {envelope_key(e): i for i, e in enumerate(fold.result) if e is not None}
        pos = fold.positions.get(key)
    return pos


def _stored_form(update: Mapping[str, Any], key: str) -> dict[str, Any]:
    """A new envelope as stored: a copy of ``update`` with ``key`` as its id (rule 1).

    Example:
        >>> _stored_form({"worker": "w", "as_of": "d"}, "w:d")
        {'worker': 'w', 'as_of': 'd', 'envelope_id': 'w:d'}
    """
    entry = dict(update)
    if not update.get("envelope_id"):
        entry["envelope_id"] = key
    return entry


def _merged(stored: Mapping[str, Any], update: Mapping[str, Any], key: str) -> dict[str, Any]:
    """Shallow field-wise merge, later wins (rule 2); an empty or None id in ``update`` is no id.

    Example:
        >>> _merged({"envelope_id": "a", "x": 1, "y": 2}, {"envelope_id": None, "y": None}, "a")
        {'envelope_id': 'a', 'x': 1, 'y': None}
    """
    merged = dict(stored)
    merged.update(update)
    if not update.get("envelope_id"):
        merged["envelope_id"] = key
    return merged


def _insert(fold: _Fold, key: str, entry: dict[str, Any]) -> None:
    """Append ``entry`` under ``key`` (rule 3: first-seen order)."""
    fold.positions[key] = len(fold.result)
    fold.result.append(entry)
    if fold.snapshot is not None:
        fold.snapshot.append(entry)


def _replace(fold: _Fold, pos: int, entry: dict[str, Any]) -> None:
    """Store ``entry`` in slot ``pos`` (the stored dict is replaced, never mutated)."""
    fold.result[pos] = entry
    if fold.snapshot is not None:
        fold.snapshot[pos] = entry


def _remove(fold: _Fold, key: str, pos: int) -> None:
    """Empty slot ``pos`` (compacted by :func:`_finish_fold`) and forget ``key``."""
    fold.result[pos] = None
    del fold.positions[key]
    fold.deleted = True


def _finish_fold(fold: _Fold) -> list[dict[str, Any]]:
    """Compact removed slots, cache the key index of the result (rule 6) and return it."""
    result, positions, snapshot = fold.result, fold.positions, fold.snapshot
    if fold.deleted:
        result = [entry for entry in result if entry is not None]
        positions = {envelope_key(entry): i for i, entry in enumerate(result)}
        snapshot = None
    _keep_index(result, list(result) if snapshot is None else snapshot, positions)
    return result
