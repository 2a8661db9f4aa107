"""Reducers: how a LangGraph channel folds the writes it receives.

A reducer is the ``op`` in ``Annotated[T, op]`` on a state key. LangGraph calls it once per write,
``value = op(value, write)``, in task-path order within a superstep, starting from the channel's
default (``list()`` for a list). It also calls it again when it replays pending writes (on resume
and in ``get_state``), so every reducer here is pure: it never mutates its inputs and the same
inputs always give the same result.

The main one is :func:`envelope_reducer`, the upsert that makes retries, resumes and re-dispatches
idempotent. The others are the small reducers LangGraph users commonly reach for.

Source: https://langchain-ai.github.io/langgraph/concepts/low_level/#reducers and LangGraph's
``langgraph/graph/message.py`` (``add_messages``), whose id-keyed upsert this generalizes.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel

from state.envelope import Envelope, envelope_key

__all__ = [
    "DELETE",
    "add_counts",
    "capped_list",
    "concat_lists",
    "dedupe_extend",
    "delete_envelope",
    "envelope_reducer",
    "keep_latest",
    "merge_dicts",
    "reset_envelopes",
]

T = TypeVar("T")

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
# (appended to, shortened, an item replaced) no longer equals its snapshot, so it rebuilds too:
# the check is one C-level pass comparing item identities, cheaper than the list copy. (Changing
# the key fields of a stored dict in place is not detected; the reducer itself never does it.)
# The cache never changes a result, only how fast it is computed. Bounded: one entry per channel
# being folded at the same time, oldest evicted first.
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
            out.append(item.model_dump(mode="json"))
        elif isinstance(item, dict):
            out.append(item)
        else:
            raise TypeError(f"an envelope must be a dict or an Envelope, got {item!r}")
    return out


def envelope_reducer(existing: Any, new: Any) -> list[dict[str, Any]]:
    """Upsert envelopes by ``envelope_id`` (falling back to ``worker:as_of``).

    Register it as ``envelopes: Annotated[list[dict], envelope_reducer]``.

    Rules (DESIGN.md section 4):
      1. The key is ``envelope_id``; when missing or empty, ``f"{worker}:{as_of}"``; an entry with
         neither raises ``ValueError`` naming the entry.
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
         checkpoint, an older value, mutated in place) is indexed afresh: correct, O(len) once.

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
    taken = _take_index(existing) if type(existing) is list else None
    snapshot: list | None  # a private copy of ``result``, kept in step with it (see the cache)
    if taken is not None:
        snapshot, positions = taken
        result = list(existing)  # the one list copy
    else:  # no valid cached index: a restored, older, hand-made or mutated value; index it once
        result = _as_entries(existing)  # a new list
        positions = {envelope_key(entry): i for i, entry in enumerate(result)}
        if len(positions) != len(result):  # a hand-made value with repeated keys: fold it
            return envelope_reducer(envelope_reducer(None, result), updates)
        snapshot = None

    deleted = False
    for update in updates:
        if isinstance(update.get(RESET), dict):  # reset_envelopes: what the writer saw, if same
            for key, digest in update[RESET].items():
                pos = positions.get(key)
                if pos is not None and result[pos] is not None and (
                        envelope_key(result[pos]) == key and _fingerprint(result[pos]) == digest):
                    result[pos] = None  # compacted below
                    del positions[key]
                    deleted = True
            continue
        key = envelope_key(update)
        pos = positions.get(key)
        if pos is not None and (result[pos] is None or envelope_key(result[pos]) != key):
            # The index disagrees with the entry (a stored dict's key was changed in place):
            # index the list itself. Never taken on values nobody mutated.
            positions = {envelope_key(e): i for i, e in enumerate(result) if e is not None}
            pos = positions.get(key)
        if update.get(DELETE):
            if pos is not None:
                result[pos] = None  # compacted below
                del positions[key]
                deleted = True
            continue
        if pos is None:
            positions[key] = len(result)
            entry = dict(update)
            result.append(entry)
            if snapshot is not None:
                snapshot.append(entry)
        else:
            merged = dict(result[pos])
            merged.update(update)
            result[pos] = merged
            if snapshot is not None:
                snapshot[pos] = merged
    if deleted:
        result = [entry for entry in result if entry is not None]
        positions = {envelope_key(entry): i for i, entry in enumerate(result)}
        snapshot = None
    _keep_index(result, list(result) if snapshot is None else snapshot, positions)
    return result


def dedupe_extend(existing: Sequence[T] | None, new: Iterable[T] | T | None) -> list[T]:
    """Append the new items that are not already present, keeping first-seen order.

    Use it for a list of hashable values that many parallel nodes add to, where the same value
    must appear once (visited URLs, sub-questions, source references).

    Args:
        existing: the current list (hashable items), or None.
        new: one item or an iterable of items (a ``str`` counts as one item), or None.

    Example:
        >>> dedupe_extend(["a", "b"], ["b", "c", "c"])
        ['a', 'b', 'c']
    """
    out = list(existing or [])
    seen = set(out)
    if new is None:
        return out
    items = [new] if isinstance(new, (str, bytes)) or not isinstance(new, Iterable) else new
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out


def merge_dicts(existing: Mapping[str, Any] | None, new: Mapping[str, Any] | None) -> dict:
    """Shallow dict merge, later wins: for a map that parallel nodes each add keys to.

    Use it for settings or metadata written piecewise (e.g. ``{"worker": "model name"}``). A value
    of None is stored as None (it does not delete the key).

    Example:
        >>> merge_dicts({"a": 1, "b": 2}, {"b": 3, "c": 4})
        {'a': 1, 'b': 3, 'c': 4}
    """
    out = dict(existing or {})
    out.update(new or {})
    return out


def capped_list(limit: int) -> Callable[[list | None, Any], list]:
    """Build a reducer that appends and then keeps only the last ``limit`` items.

    Use it for logs, recent events or progress messages in state, whose growth would otherwise
    make every checkpoint larger.

    Args:
        limit: how many items to keep (>= 1).

    Raises:
        ValueError: when ``limit`` < 1.

    Example:
        >>> keep3 = capped_list(3)
        >>> keep3([1, 2, 3], [4, 5])
        [3, 4, 5]
    """
    if limit < 1:
        raise ValueError("capped_list needs a limit of at least 1")

    def reducer(existing: list | None, new: Any) -> list:
        items = new if isinstance(new, list) else ([] if new is None else [new])
        return (list(existing or []) + items)[-limit:]

    reducer.__name__ = f"capped_list_{limit}"
    reducer.__doc__ = f"Append, then keep the last {limit} items."
    return reducer


def concat_lists(existing: list | None, new: list | Any | None) -> list:
    """``operator.add`` for lists that is safe with None and with a single item.

    Use it for an append-only log where duplicates are meaningful (each write is an event).

    Example:
        >>> concat_lists(None, [1]) + concat_lists([1], 2)
        [1, 1, 2]
    """
    items = new if isinstance(new, list) else ([] if new is None else [new])
    return list(existing or []) + items


def keep_latest(field: str) -> Callable[[Any, Any], Any]:
    """Build a reducer that keeps whichever value has the greater ``field`` (e.g. a timestamp).

    Use it for a "latest status" key that parallel or retried nodes write in any order: the
    newest by its own timestamp wins, not the last applied. On a tie the later write wins. A side
    that is None (or lacks the field) loses to one that has it.

    Args:
        field: the key (for dicts) or attribute compared; values must be mutually comparable
            (ISO-8601 strings in UTC compare correctly as strings).

    Example:
        >>> latest = keep_latest("at")
        >>> latest({"at": "2026-11-30T10:00Z", "s": "b"}, {"at": "2026-11-30T09:00Z", "s": "a"})
        {'at': '2026-11-30T10:00Z', 's': 'b'}
    """

    def _stamp(value: Any) -> Any:
        if value is None:
            return None
        if isinstance(value, Mapping):
            return value.get(field)
        return getattr(value, field, None)

    def reducer(existing: Any, new: Any) -> Any:
        old_at, new_at = _stamp(existing), _stamp(new)
        if new_at is None:
            return existing if old_at is not None else new if new is not None else existing
        if old_at is None or new_at >= old_at:
            return new
        return existing

    reducer.__name__ = f"keep_latest_{field}"
    reducer.__doc__ = f"Keep the value with the greatest {field!r}."
    return reducer


def add_counts(existing: Mapping[Hashable, int] | None, new: Mapping[Hashable, int] | None) -> dict:
    """Add per-key integer deltas: a dict of counters that parallel nodes increment.

    For a single counter use ``Annotated[int, operator.add]`` and write the delta (not the total).
    This is the same idea for several named counters at once (``{"prompt_tokens": 120, ...}``).

    Example:
        >>> add_counts({"in": 10, "out": 2}, {"in": 5, "calls": 1})
        {'in': 15, 'out': 2, 'calls': 1}
    """
    out = dict(existing or {})
    for key, delta in (new or {}).items():
        out[key] = out.get(key, 0) + delta
    return out
