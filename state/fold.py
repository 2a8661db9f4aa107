"""The envelope fold: the working steps of one :func:`state.reducers.envelope_reducer` call.

:func:`start_fold` copies the channel's value and its key index (reusing the cached index of the
value the previous call returned), :func:`apply_write` applies one write to it (a reset, a
deletion, an insert or a merge) and :func:`finish_fold` compacts it, caches its index and returns
the new list. The rules they implement are listed on :func:`state.reducers.envelope_reducer`;
this module is private to it (pure: no I/O).
"""

from __future__ import annotations

import hashlib
import json
import threading
import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from state.envelope import KEPT, Envelope, envelope_key

DELETE = "__delete__"
"""Field that marks an envelope write as a deletion; see :func:`state.reducers.delete_envelope`."""

RESET = "__reset__"
"""Field that marks a write as a channel reset; see :func:`state.reducers.reset_envelopes`."""


def fingerprint(entry: Mapping[str, Any]) -> str:
    """A digest of an envelope's content (same content, same digest)."""
    text = json.dumps(entry, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


# The key index of the latest value of each envelope channel, so the next call need not rebuild
# it. Keyed by ``id(value)``, holding a *weak* reference to ``value`` (a :class:`Folded` list, so
# it can be weakly referenced), a private snapshot of its items and the ``{key: position}``
# index. The entry goes when the value does: the cache never outlives the channel value LangGraph
# holds, so it pins no payloads of a thread that paused, failed or finished (held strongly, 32
# lists of 1,200 envelopes were 177 MB). The weak reference also keeps the id from being reused
# while cached: a live value's id is its own. Taking an entry removes it: once a newer value is
# derived from a list, that list no longer owns the index, and folding it again (an older value, a
# replayed write) rebuilds. Values restored from a checkpoint are new objects, so they also
# rebuild, once. A list the caller changed in place (appended to, shortened, an item replaced or
# reordered) no longer equals its snapshot, so it rebuilds too: the check is one C-level pass
# comparing item identities, cheaper than the list copy. A stored dict whose other fields were
# changed in place is the same dict either way.
#
# So the cache gives the result a fold without it gives, with one stated limit: it trusts that
# a stored dict keeps its ``envelope_id`` (every stored envelope has one, see rule 1). A node that
# changes ``envelope_id`` in place on a dict of the channel, instead of writing
# ``delete_envelope(old)`` and the envelope under its new id, can make the next fold keep the new
# id twice, where a fold without the cache would merge the two. The test that pins this limit:
# tests/state/test_envelope_reducer_cache.py::test_an_in_place_id_change_is_the_caches_stated_limit
# Checking every id on every call would be a Python-level pass per write: the quadratic cost the
# cache exists to avoid (scripts/bench_reducer.py). Bounded all the same (values a caller keeps
# alive, e.g. every ``values`` chunk of a stream): past that many, the oldest entry is evicted.
_INDEX_SLOTS = 256
_index_cache: dict[int, tuple[weakref.ref, list, dict[str, int]]] = {}
_index_lock = threading.Lock()


class Folded(list):
    """The list an ``envelope_reducer`` call returns: a plain ``list`` that can be weakly
    referenced (its index cache entry goes with it). Checkpoints store it as a list, and it
    compares, prints and copies as one.

    Example:
        >>> Folded([{"envelope_id": "a"}]) == [{"envelope_id": "a"}]
        True
    """

    __slots__ = ("__weakref__",)


def _take_index(existing: Any) -> tuple[list, dict[str, int]] | None:
    """Return (and remove) the snapshot and key index of ``existing``, if still valid."""
    with _index_lock:
        hit = _index_cache.pop(id(existing), None)
    if hit is None or hit[0]() is not existing:
        return None
    try:
        unchanged = hit[1] == existing  # identical items compare without calling __eq__
    except Exception:  # a replaced item whose values refuse ==: treat the list as changed
        unchanged = False
    if not unchanged:
        return None  # the list was changed in place since it was returned
    return hit[1], hit[2]


def _forget(key: int, ref: weakref.ref) -> None:
    """Drop the entry of a value that is gone (its weak reference's callback)."""
    with _index_lock:
        hit = _index_cache.get(key)
        if hit is not None and hit[0] is ref:
            del _index_cache[key]


def _keep_index(value: Folded, snapshot: list, positions: dict[str, int]) -> None:
    key = id(value)
    ref = weakref.ref(value, lambda r: _forget(key, r))
    with _index_lock:
        while len(_index_cache) >= _INDEX_SLOTS:
            _index_cache.pop(next(iter(_index_cache)))
        _index_cache[key] = (ref, snapshot, positions)


class EnvelopeTypeError(TypeError, ValueError):
    """A write to ``envelopes`` that is no envelope (``{"envelopes": 5}``, ``[5]``). A
    ``TypeError``, and a ``ValueError`` too: LangGraph Server answers a ``ValueError`` raised by
    ``update_state`` with 400 and its line, any other exception with 500 and a traceback."""


def as_entries(value: Any) -> list[dict[str, Any]]:
    """Normalize one side of a reducer call to a list of dicts (no copies of the dicts).

    Raises:
        EnvelopeTypeError: ``value`` (or an item of it) is no envelope: one line naming
            ``envelopes`` and the type.
    """
    if value is None:
        return []
    if isinstance(value, (dict, BaseModel)):
        value = [value]
    elif not isinstance(value, (list, tuple)):
        raise EnvelopeTypeError(
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
            shown = repr(item)
            shown = shown if len(shown) <= 80 else f"{shown[:77]}..."
            raise EnvelopeTypeError(f"envelopes: an envelope must be a dict or an Envelope, got "
                                    f"{type(item).__name__} {shown}")
    return out


def _round_of(entry: Mapping[str, Any]) -> int | None:
    """The entry's explicit dispatch ``round`` (an int, not a bool), or None."""
    value = entry.get("round")
    return value if type(value) is int else None


def _without_round(update: Mapping[str, Any]) -> dict[str, Any]:
    """``update`` without its ``round`` field: a round that is not an int (``1.0``, ``None``,
    ``"3"``, ``True``, as a served client's state edit may write) is no round, and is not
    stored, so it can never replace the stored int round that judges later echoes (rule 7).

    Example:
        >>> _without_round({"envelope_id": "a", "round": 1.0, "v": 2})
        {'envelope_id': 'a', 'v': 2}
    """
    return {name: value for name, value in update.items() if name != "round"}


def _is_stale(update: Mapping[str, Any], stored: Mapping[str, Any]) -> bool:
    """True when ``update`` carries a lower ``round`` than ``stored`` (rule 7)."""
    return _older(_round_of(update), _round_of(stored))


def _older(new: int | None, old: int | None) -> bool:
    """True when both rounds are known and ``new`` is the lower."""
    return new is not None and old is not None and new < old


@dataclass(slots=True)
class _Fold:
    """The working state of one ``envelope_reducer`` call (owned by that call alone).

    ``result`` is the new list (``None`` marks a removed slot until :func:`finish_fold`
    compacts it), ``positions`` maps each key to its slot, ``snapshot`` is the cached private
    copy of ``result`` kept in step with it (None when it must be rebuilt at the end), and
    ``deleted`` says a slot was removed.
    """

    result: Folded
    positions: dict[str, int]
    snapshot: list | None
    deleted: bool = False


def start_fold(existing: Any) -> _Fold | None:
    """Copy ``existing`` and its key index, reusing the cached index when it is still valid.

    Returns None for a hand-made value with repeated keys (the caller folds it first). Entries
    with no ``envelope_id`` are stored under their key (rule 1), as new dicts.

    Example:
        >>> start_fold([{"worker": "w", "as_of": "d"}]).result
        [{'worker': 'w', 'as_of': 'd', 'envelope_id': 'w:d'}]
        >>> start_fold([{"envelope_id": "a"}, {"envelope_id": "a"}]) is None
        True
    """
    taken = _take_index(existing) if type(existing) is Folded else None
    if taken is not None:
        snapshot, positions = taken
        # the one list copy, from the snapshot: a plain list equal to ``existing`` item for
        # item, which CPython copies at C speed (a list subclass it copies item by item)
        return _Fold(Folded(snapshot), positions, snapshot)
    # no valid cached index: a restored, older, hand-made or mutated value; index it once
    result = Folded(as_entries(existing))  # a new list
    keys = [envelope_key(entry) for entry in result]
    positions = {key: i for i, key in enumerate(keys)}
    if len(positions) != len(result):
        return None
    for i, entry in enumerate(result):
        if not entry.get("envelope_id"):  # a hand-made value: store it under its key
            result[i] = {**entry, "envelope_id": keys[i]}
    return _Fold(result, positions, None)


def apply_write(fold: _Fold, update: dict[str, Any]) -> None:
    """Apply one write to ``fold``: a reset, a deletion, an insert or a merge (rules 2, 5, 7, 8)."""
    if isinstance(update.get(RESET), dict):
        _apply_reset(fold, update[RESET])
        return
    if "round" in update and _round_of(update) is None:
        update = _without_round(update)  # rule 7: a round that is not an int is no round
    key = envelope_key(update)
    pos = _position_of(fold, key)
    if update.get(DELETE):
        if pos is not None:
            _remove(fold, key, pos)
    elif pos is None:
        _insert(fold, key, _stored_form(update, key))
    elif (written := _written(fold.result[pos], update, key)) is not None:
        _replace(fold, pos, written)


def _written(stored: dict[str, Any], update: Mapping[str, Any], key: str
             ) -> dict[str, Any] | None:
    """``stored`` after ``update`` (rules 2, 7 and 8), or None when the update changes nothing.

    Example:
        >>> ok = {"envelope_id": "a", "status": "ok", "round": 1, "structured": {"p": 1}}
        >>> _written(ok, {"envelope_id": "a", "status": "error", "round": 2, "error": "E"}, "a")
        {'envelope_id': 'a', 'status': 'ok', 'round': 2, 'structured': {'p': 1}, \
'kept': {'round': 1, 'error': 'E'}}
    """
    status = update.get("status")
    if status in ("ok", "error") and not isinstance(update.get(KEPT), Mapping):
        # a result (a copy of a kept envelope, a subgraph's echo, merges as below)
        if status == "error" and stored.get("status", "ok") == "ok":
            return _attempt_failed(stored, update)
        if status == "ok" and stored.get("status") == "error" and _is_stale(update, stored):
            return _kept_over(stored, update, key)
        if status == "ok" and isinstance(stored.get(KEPT), Mapping):
            return _result_under_mark(stored, update, key)
    return None if _is_stale(update, stored) else _merged(stored, update, key)  # rule 7


def _attempt_failed(stored: dict[str, Any], update: Mapping[str, Any]) -> dict[str, Any] | None:
    """Rule 8: an error over an ok result keeps the result; the envelope takes the error's
    ``round`` and records the error in ``kept`` (with the round of the result kept)."""
    if _is_stale(update, stored):  # older than the latest attempt: a stale echo (rule 7)
        return None
    mark = stored.get(KEPT)
    out = dict(stored)
    if "round" in update:
        out["round"] = update["round"]
    out[KEPT] = {"round": mark["round"] if isinstance(mark, Mapping) else stored.get("round"),
                 "error": update.get("error")}
    return out


def _kept_over(stored: dict[str, Any], update: Mapping[str, Any], key: str) -> dict[str, Any]:
    """Rule 8 in the other fold order: an ok result of a lower round than the stored error is
    the result to keep, and the stored error becomes the failed attempt (its round stays)."""
    out = _merged(stored, update, key)
    out["round"] = stored["round"]
    out[KEPT] = {"round": update["round"], "error": stored.get("error")}
    return out


def _result_under_mark(stored: dict[str, Any], update: Mapping[str, Any], key: str
                       ) -> dict[str, Any] | None:
    """An ok result written over a kept one (rule 8): stale when older than the kept result;
    when older than the failed attempt it replaces the result and the mark stays, else it is
    the latest attempt and the mark goes."""
    mark = stored[KEPT]
    if _older(_round_of(update), _round_of(mark)):
        return None
    out = _merged(stored, update, key)
    if _is_stale(update, stored):
        out["round"] = stored["round"]
        out[KEPT] = {"round": update["round"], "error": mark.get("error")}
    else:
        del out[KEPT]
    return out


def _apply_reset(fold: _Fold, seen: Mapping[str, str]) -> None:
    """Remove each envelope of ``seen`` (``{key: digest}``) still as the writer saw it (rule 5)."""
    for key, digest in seen.items():
        pos = fold.positions.get(key)
        if pos is None:
            continue
        stored = fold.result[pos]
        if stored is not None and envelope_key(stored) == key and fingerprint(stored) == digest:
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
    """Empty slot ``pos`` (compacted by :func:`finish_fold`) and forget ``key``."""
    fold.result[pos] = None
    del fold.positions[key]
    fold.deleted = True


def finish_fold(fold: _Fold) -> list[dict[str, Any]]:
    """Compact removed slots, cache the key index of the result (rule 6) and return it."""
    result, positions, snapshot = fold.result, fold.positions, fold.snapshot
    if fold.deleted:
        result = Folded(entry for entry in result if entry is not None)
        positions = {envelope_key(entry): i for i, entry in enumerate(result)}
        snapshot = None
    _keep_index(result, list(result) if snapshot is None else snapshot, positions)
    return result
