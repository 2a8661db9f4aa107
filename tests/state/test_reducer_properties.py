"""Property tests for envelope_reducer over random batches of envelope writes (hypothesis).

Writes draw their keys from a small pool so updates collide: explicit ``envelope_id``s, entries
without an id (missing, empty or None) keyed by the fallback (``make_envelope_id(worker, task_key,
as_of)`` when they carry a ``task_key``, else ``worker:as_of``), and one explicit id spelled like a
fallback key. Every result entry carries its key as its ``envelope_id``. Each write sets a random
subset of fields, some to None. The existing value is either hand-made (possibly with repeated
keys) or one the reducer returned (so its cached key index is used). Proves, for every such batch:

* no key appears twice, and every key of ``existing`` and of the batch appears;
* folding the same batch twice equals folding it once (idempotent: retries, replays);
* splitting the batch into any number of successive calls gives the same result as one call
  (so LangGraph's one call per write equals one call with all writes);
* the inputs are unchanged;
* the result equals a simple reference model (ordered dict of keys, ``dict.update`` per write):
  for each key and field the value is the last writer's, keys in first-seen order, but for an
  error written over an ok result (rule 8: the result is kept);
* with deletions, with the caller mutating a returned list in place, and with calls that branch
  from older values (as ``get_state`` replays do), the result still equals the reference.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from state import DELETE, delete_envelope, envelope_reducer, make_envelope_id
from tests.state._reducer_helpers import reference_write

# Modest budgets: the whole file runs in well under 20 s on a small CI machine.
SETTINGS = settings(max_examples=100, deadline=None)
SEQUENCE_SETTINGS = settings(max_examples=60, deadline=None)  # examples of several calls each

IDS = ["e0", "e1", "e2", "e3", "e4", "w0:2026-11-30"]  # the last one collides with a fallback key
WORKERS = ["w0", "w1"]
DAYS = ["2026-11-30", "2026-12-01"]

field_values = {
    "status": st.sampled_from(["ok", "error"]),
    "error": st.none() | st.sampled_from(["boom", "timeout"]),
    "structured": st.none() | st.fixed_dictionaries({"p": st.integers(0, 9)}),
    "persisted": st.booleans(),
    "tokens": st.none() | st.integers(0, 100),
    "task_key": st.sampled_from(["q1", "q2"]),
}


@st.composite
def writes(draw) -> dict[str, Any]:
    """One envelope write: a key (explicit id or the fallback) and a random subset of fields."""
    entry: dict[str, Any] = {}
    if draw(st.integers(0, 3)) > 0:  # mostly explicit ids
        entry["envelope_id"] = draw(st.sampled_from(IDS))
        for name in ("worker", "as_of"):
            if draw(st.booleans()):
                entry[name] = draw(st.sampled_from(WORKERS if name == "worker" else DAYS))
    else:
        how = draw(st.sampled_from(["missing", "empty", "none"]))
        if how != "missing":
            entry["envelope_id"] = "" if how == "empty" else None
        entry["worker"] = draw(st.sampled_from(WORKERS))
        entry["as_of"] = draw(st.sampled_from(DAYS))
    for name in draw(st.sets(st.sampled_from(sorted(field_values)))):
        entry[name] = draw(field_values[name])
    return entry


batches = st.lists(writes(), max_size=12)


RESULT_FIELDS = ("status", "error", "structured", "persisted", "tokens")


@st.composite
def results_as_workers_write(draw) -> dict[str, Any]:
    """A write as a worker makes it: one that carries a ``status`` is a whole envelope (every
    field of :data:`RESULT_FIELDS`, a worker and a day, ``error`` set with the status; a
    ``task_key`` only when drawn, so such writes still collide with ``worker:as_of`` keys); the
    rest (persist's write-back, a partial edit) are as :func:`writes` draws them."""
    entry = draw(writes())
    if "status" not in entry:
        return entry
    if "error" not in entry:
        entry["error"] = None if entry["status"] == "ok" else "boom"
    for name in RESULT_FIELDS:
        if name not in entry:
            entry[name] = draw(field_values[name])
    for name, pool in (("worker", WORKERS), ("as_of", DAYS)):
        if name not in entry:
            entry[name] = draw(st.sampled_from(pool))
    return entry


result_batches = st.lists(results_as_workers_write(), max_size=12)
"""Batches of results as workers write them. Idempotence holds for these, not for partial
status writes: with rule 8 an error write is merged over a stored error but kept aside over an
ok result, dropping its other fields. So ``{"status": "ok"}`` after ``{"status": "error",
"error": "boom"}`` keeps "boom" when folded over a stored error and not when folded again over
the ok it made, and ``{"status": "error", "worker": "w0"}`` after ``{"worker": "w1"}`` sets w0
the first time and not the second (both found by CI runs; the second is pinned in
tests/state/test_reducer_kept.py)."""


def key_of(entry: dict[str, Any]) -> str:
    """The reference key rule, written independently of state.envelope.envelope_key: the id,
    else the id the worker wrapper would stamp (when the entry has a task_key), else
    worker:as_of."""
    if entry.get("envelope_id"):
        return entry["envelope_id"]
    if entry.get("task_key"):
        return make_envelope_id(entry["worker"], entry["task_key"], entry["as_of"])
    return f"{entry['worker']}:{entry['as_of']}"


def reference(*sequences: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The obvious model: an insertion-ordered dict of keys, ``dict.update`` for each write
    (but for rule 8, an error never replacing an ok result: :func:`reference_write`)."""
    table: dict[str, dict[str, Any]] = {}
    for sequence in sequences:
        for entry in sequence:
            key = key_of(entry)
            if entry.get(DELETE):
                table.pop(key, None)
                continue
            written = reference_write(table.get(key), entry)
            if written is not None:
                table[key] = {**written, "envelope_id": key}  # stored under its key, id or not
    return list(table.values())


@st.composite
def existing_values(draw) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(existing, the writes it stands for): hand-made (maybe repeated keys) or reducer-built."""
    history = draw(batches)
    if draw(st.booleans()):
        return copy.deepcopy(history), history  # hand-made: a list the reducer never returned
    value: Any = []
    for entry in history:
        value = envelope_reducer(value, entry)  # one call per write, like LangGraph
    return value, history


def keys(value: list[dict[str, Any]]) -> list[str]:
    return [key_of(entry) for entry in value]


@SETTINGS
@given(existing_values(), batches)
def test_keys_are_unique_and_none_is_lost(existing_and_history, batch):
    existing, _ = existing_and_history
    out = envelope_reducer(existing, batch)
    assert len(set(keys(out))) == len(out)
    assert set(keys(out)) == set(keys(existing)) | set(keys(batch))


@SETTINGS
@given(existing_values(), result_batches)
def test_folding_the_same_batch_twice_equals_once(existing_and_history, batch):
    existing, _ = existing_and_history
    once = envelope_reducer(existing, batch)
    twice = envelope_reducer(once, batch)
    assert twice == once
    # and replaying the whole batch one write at a time changes nothing either
    value = once
    for entry in batch:
        value = envelope_reducer(value, entry)
    assert value == once


@SETTINGS
@given(existing_values(), batches, st.data())
def test_splitting_a_batch_into_successive_calls_changes_nothing(existing_and_history, batch, data):
    existing, _ = existing_and_history
    cuts = sorted(data.draw(st.lists(st.integers(0, len(batch)), max_size=len(batch) + 1)))
    bounds = [0, *cuts, len(batch)]
    value = copy.deepcopy(existing)
    for lo, hi in zip(bounds, bounds[1:], strict=False):
        chunk = batch[lo:hi]
        # each chunk as a list, or a single dict when it holds one write, or None when empty
        shape = data.draw(st.sampled_from(["list", "bare"]))
        write = (chunk[0] if len(chunk) == 1 else chunk or None) if shape == "bare" else chunk
        value = envelope_reducer(value, write)
    assert value == envelope_reducer(existing, batch)


@SETTINGS
@given(existing_values(), batches)
def test_inputs_are_unchanged(existing_and_history, batch):
    existing, _ = existing_and_history
    before = copy.deepcopy((existing, batch))
    items = list(existing)
    envelope_reducer(existing, batch)
    assert (existing, batch) == before
    assert all(x is y for x, y in zip(existing, items, strict=True))


@SETTINGS
@given(existing_values(), batches)
def test_each_field_is_the_last_writers_value(existing_and_history, batch):
    existing, history = existing_and_history
    out = envelope_reducer(existing, batch)
    expected = reference(history, batch)
    assert keys(out) == keys(expected)  # first-seen order
    for got, want in zip(out, expected, strict=True):
        assert got == want  # every field: the last writer's value, absent fields kept, None kept


# --- deletions, in-place mutation by a caller, branching from older values ----------------------

deletions = st.sampled_from(IDS).map(delete_envelope)
batches_with_deletes = st.lists(writes() | deletions, max_size=12)


@SEQUENCE_SETTINGS
@given(st.lists(batches_with_deletes, max_size=6))
def test_with_deletions_the_result_matches_the_reference(calls):
    value: Any = None
    for batch in calls:
        value = envelope_reducer(value, batch)
    if not calls:
        assert value is None
        return
    assert value == reference(*calls)
    assert len(set(keys(value))) == len(value)


in_place_edits = st.one_of(
    st.tuples(st.just("append"), writes()),
    st.tuples(st.just("replace"), st.integers(0, 20), writes()),
    st.tuples(st.just("delete"), st.integers(0, 20)),
    st.tuples(st.just("reverse")),
)


def apply_edit(value: list[dict[str, Any]], edit: tuple) -> None:
    if edit[0] == "append":
        value.append(copy.deepcopy(edit[1]))
    elif edit[0] == "replace" and value:
        value[edit[1] % len(value)] = copy.deepcopy(edit[2])
    elif edit[0] == "delete" and value:
        del value[edit[1] % len(value)]
    elif edit[0] == "reverse":
        value.reverse()


@SEQUENCE_SETTINGS
@given(st.lists(st.tuples(batches, st.lists(in_place_edits, max_size=3)), max_size=6))
def test_a_caller_mutating_returned_lists_in_place_gets_the_fresh_result(steps):
    value: list[dict[str, Any]] = []
    for batch, edits in steps:
        for edit in edits:
            apply_edit(value, edit)
        expected = envelope_reducer(copy.deepcopy(value), batch)  # a new list: no cached index
        value = envelope_reducer(value, batch)
        assert value == expected
        assert len(set(keys(value))) == len(value)


@SEQUENCE_SETTINGS
@given(st.lists(st.tuples(st.integers(0, 10), batches_with_deletes), min_size=1, max_size=8))
def test_branching_from_older_values_matches_the_reference(steps):
    # node 0 is the empty value; each step folds a batch onto any earlier node
    values: list[list[dict[str, Any]]] = [[]]
    paths: list[list[list[dict[str, Any]]]] = [[]]
    for parent, batch in steps:
        parent %= len(values)
        values.append(envelope_reducer(values[parent], batch))
        paths.append([*paths[parent], batch])
    for value, path in zip(values, paths, strict=True):
        assert value == reference(*path)


@SEQUENCE_SETTINGS
@given(st.lists(batches, max_size=5), st.lists(batches, max_size=5))
def test_two_channels_folded_interleaved_do_not_disturb_each_other(left, right):
    a: Any = []
    b: Any = []
    for i in range(max(len(left), len(right))):
        if i < len(left):
            a = envelope_reducer(a, left[i])
        if i < len(right):
            b = envelope_reducer(b, right[i])
    assert a == reference(*left)
    assert b == reference(*right)
