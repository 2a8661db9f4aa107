"""Shared by the envelope_reducer example tests (``test_envelope_reducer*.py``): envelope dicts
with a fixed ``as_of``, the key of each stored envelope, and a fold of successive writes.

* :func:`env` ``("a", v=1)`` -> ``{"envelope_id": "a", "worker": "w", "as_of": AS_OF, "v": 1}``;
* :func:`ids` ``(value)`` -> each entry's ``envelope_id``, else its ``worker:as_of``, in order;
* :func:`fold` ``(*writes, start=None)`` -> ``envelope_reducer`` applied to each write in turn,
  as LangGraph applies the writes of successive supersteps to one channel;
* :func:`reference_write` ``(stored, write)`` -> the reducer's rules 2, 7 and 8 for one write,
  written plainly: the reference model of the property tests.
"""

from __future__ import annotations

import copy

from state import envelope_reducer

AS_OF = "2026-11-30"


def env(eid: str, **fields) -> dict:
    return {"envelope_id": eid, "worker": "w", "as_of": AS_OF, **fields}


def ids(value: list[dict]) -> list[str]:
    return [e.get("envelope_id") or f"{e['worker']}:{e['as_of']}" for e in value]


def fold(*writes, start=None):
    value = start
    for write in writes:
        value = envelope_reducer(value, write)
    return value


def _round(entry: dict) -> int | None:
    value = entry.get("round")
    return value if type(value) is int else None


def _lower(new: int | None, old: int | None) -> bool:
    return new is not None and old is not None and new < old


def reference_write(stored: dict | None, entry: dict) -> dict | None:
    """The reducer's rules 2, 7 and 8 for one write, written plainly for the property tests:
    ``stored`` after ``entry`` (a new dict), or None when the write changes nothing.

    Rule 2: ``dict.update``. Rule 7: a write with a lower int ``round`` than the stored one is
    stale. Rule 8: an ``error`` result never replaces an ``ok`` one (a stored envelope without a
    status reads as ok): the ok result stays, takes the error's round, and ``kept`` records the
    result's round and the error; an ok result older than a stored error, or than a kept one's
    failed attempt, is the result kept under that error; a newer one clears ``kept``. A write
    carrying ``kept`` (a copy of a kept envelope) merges by rules 2 and 7 only. A ``round`` that
    is not an int is left out of the write (rule 7: no round, never stored)."""
    entry = copy.deepcopy(entry)
    if "round" in entry and _round(entry) is None:
        del entry["round"]  # a round that is not an int is no round, and is not stored
    if stored is None:
        return entry
    new, old = _round(entry), _round(stored)
    status = None if "kept" in entry else entry.get("status")
    if status == "error" and stored.get("status", "ok") == "ok":
        if _lower(new, old):
            return None
        result_round = stored["kept"]["round"] if "kept" in stored else stored.get("round")
        out = {**stored, "kept": {"round": result_round, "error": entry.get("error")}}
        if "round" in entry:
            out["round"] = entry["round"]
        return out
    if status == "ok" and stored.get("status") == "error" and _lower(new, old):
        return {**stored, **entry, "round": old,
                "kept": {"round": new, "error": stored.get("error")}}
    if status == "ok" and "kept" in stored:
        if _lower(new, _round(stored["kept"])):
            return None
        if _lower(new, old):
            return {**stored, **entry, "round": old,
                    "kept": {"round": new, "error": stored["kept"]["error"]}}
        return {k: v for k, v in {**stored, **entry}.items() if k != "kept"}
    return None if _lower(new, old) else {**stored, **entry}
