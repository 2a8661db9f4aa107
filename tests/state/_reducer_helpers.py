"""Shared by the envelope_reducer example tests (``test_envelope_reducer*.py``): envelope dicts
with a fixed ``as_of``, the key of each stored envelope, and a fold of successive writes.

* :func:`env` ``("a", v=1)`` -> ``{"envelope_id": "a", "worker": "w", "as_of": AS_OF, "v": 1}``;
* :func:`ids` ``(value)`` -> each entry's ``envelope_id``, else its ``worker:as_of``, in order;
* :func:`fold` ``(*writes, start=None)`` -> ``envelope_reducer`` applied to each write in turn,
  as LangGraph applies the writes of successive supersteps to one channel.
"""

from __future__ import annotations

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
