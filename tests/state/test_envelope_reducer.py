"""Example tests for envelope_reducer, one or more per rule of docs/architecture.md ("The
reducer rules"): the upsert and the merge.

Proves: upsert by ``envelope_id``; shallow merge where the later write wins, an absent field
keeps its value and an explicit None clears it; each key once, in first-seen order; inputs never
mutated; None / single dict / single Envelope accepted and models stored as dicts; deletion
through ``delete_envelope`` (a missing id is a no-op); and the motivating scenario, persist
flipping ``persisted``/``structured`` after the workers wrote, keeps each envelope once.

The keys of envelopes without an id are in ``test_envelope_reducer_keys.py``, the key-index
cache in ``test_envelope_reducer_cache.py``, the other reducers in ``test_other_reducers.py``.
"""

from __future__ import annotations

import copy

import pytest

from state import DELETE, Envelope, delete_envelope, envelope_reducer, make_envelope_id
from tests.state._reducer_helpers import AS_OF, env, fold, ids

# --- rule 1: upsert by envelope_id (without one: test_envelope_reducer_keys.py) -----------------


def test_upsert_by_envelope_id():
    out = fold([env("a", v=1)], [env("b", v=1)], [env("a", v=2)])
    assert ids(out) == ["a", "b"]
    assert [e["v"] for e in out] == [2, 1]


# --- rule 2: the merge ---------------------------------------------------------------------------


def test_shallow_merge_later_wins_and_absent_fields_are_kept():
    out = fold(
        [env("a", status="error", error="boom", structured={"p": [1], "q": 1}, tokens=5)],
        [{"envelope_id": "a", "status": "ok", "structured": {"p": [2]}}],
    )
    (entry,) = out
    assert entry["status"] == "ok"
    assert entry["structured"] == {"p": [2]}  # shallow: the nested dict is replaced, not merged
    assert entry["error"] == "boom" and entry["tokens"] == 5  # absent from the update: kept
    assert entry["worker"] == "w" and entry["as_of"] == AS_OF


def test_explicit_none_clears_a_field():
    out = fold(
        [env("a", structured={"p": 1}, persisted=False)],
        [{"envelope_id": "a", "persisted": True, "structured": None}],
    )
    assert out == [env("a", structured=None, persisted=True)]
    assert "structured" in out[0] and out[0]["structured"] is None


# --- rule 3: order ------------------------------------------------------------------------------


def test_each_key_once_in_first_seen_order():
    out = fold(
        [env("c"), env("a")], [env("b"), env("a", v=1)], env("c", v=2), [env("d"), env("b", v=3)]
    )
    assert ids(out) == ["c", "a", "b", "d"]
    assert [e.get("v") for e in out] == [2, 1, 3, None]


def test_duplicates_inside_one_write_are_folded():
    out = envelope_reducer([], [env("a", v=1), env("b"), env("a", v=2, w=1)])
    assert ids(out) == ["a", "b"]
    assert out[0]["v"] == 2 and out[0]["w"] == 1


# --- rule 4: purity and input shapes ------------------------------------------------------------


def test_inputs_are_never_mutated():
    existing = fold([env("a", structured={"p": [1]}), env("b")])
    new = [
        {"envelope_id": "a", "structured": None, "persisted": True},
        env("c"),
        delete_envelope("b"),
    ]
    before = copy.deepcopy((existing, new))
    existing_items = list(existing)
    out = envelope_reducer(existing, new)
    assert (existing, new) == before
    # the same dict objects, untouched (and as many: the list was not changed either)
    assert all(x is y for x, y in zip(existing, existing_items, strict=True))
    assert out is not existing
    assert ids(out) == ["a", "c"]
    # and the dicts in the result are not the caller's dicts: mutating the result's entry later
    # cannot reach the write the caller still holds
    assert all(o is not n for o in out for n in new)


def test_none_on_either_side_is_empty():
    assert envelope_reducer(None, None) == []
    assert envelope_reducer(None, [env("a")]) == [env("a")]
    existing = fold([env("a")])
    out = envelope_reducer(existing, None)
    assert out == [env("a")] and out is not existing
    assert envelope_reducer([], []) == []


def test_single_dict_and_single_envelope_are_accepted():
    eid = make_envelope_id("docs_search", "q", AS_OF)
    model = Envelope(
        envelope_id=eid, worker="docs_search", as_of=AS_OF, task_key="q", structured={"p": 1}
    )
    out = envelope_reducer(None, model)
    assert out == [model.to_state()]
    out = envelope_reducer(out, {"envelope_id": eid, "persisted": True})
    assert len(out) == 1 and out[0]["persisted"] is True and out[0]["structured"] == {"p": 1}


def test_envelope_models_are_stored_as_plain_dicts():
    model = Envelope(envelope_id="e1", worker="w", as_of="2026-11-30")
    out = envelope_reducer([Envelope(envelope_id="e0", worker="w", as_of=AS_OF)], [model])
    assert [type(e) for e in out] == [dict, dict]
    assert out[1] == model.to_state()


def test_other_types_raise_type_error():
    with pytest.raises(TypeError):
        envelope_reducer([], "e1")
    with pytest.raises(TypeError):
        envelope_reducer([], [("envelope_id", "e1")])


# --- rule 5: deletion and reset (Overwrite is covered in test_reducer_in_graph.py) -------------


def test_delete_envelope_removes_one():
    existing = fold([env("a"), env("b"), env("c")])
    out = envelope_reducer(existing, delete_envelope("b"))
    assert ids(out) == ["a", "c"]
    assert delete_envelope("b") == {"envelope_id": "b", DELETE: True}
    # the deleted key can come back, at the end
    out = envelope_reducer(out, env("b", v=9))
    assert ids(out) == ["a", "c", "b"] and out[2]["v"] == 9


def test_deleting_a_missing_id_is_a_no_op():
    existing = fold([env("a"), env("b")])
    out = envelope_reducer(existing, delete_envelope("zzz"))
    assert out == existing
    assert envelope_reducer([], delete_envelope("zzz")) == []


def test_delete_then_update_in_one_write_and_later_calls_still_upsert():
    existing = fold([env("a"), env("b"), env("c")])
    out = envelope_reducer(existing, [delete_envelope("a"), env("c", v=1), env("d")])
    assert ids(out) == ["b", "c", "d"] and out[1]["v"] == 1
    out = fold([env("b", v=2)], [env("d", v=3)], start=out)  # the index after a deletion is right
    assert ids(out) == ["b", "c", "d"]
    assert [e.get("v") for e in out] == [2, 1, 3]


# --- rules 1 to 4 together: persist writing back over the workers' writes -----------------------


def test_persist_flip_keeps_each_envelope_once():
    """The motivating scenario: workers write, then persist writes back persisted/structured."""
    tasks = [("docs_search", f"question {i}") for i in range(5)] + [("analyst", "question 0")]
    collected = None
    for worker, question in tasks:  # one write per worker, as a Send fan-out produces them
        eid = make_envelope_id(worker, question, AS_OF)
        model = Envelope(
            envelope_id=eid, worker=worker, as_of=AS_OF, task_key=question,
            structured={"answer": question},
        )
        collected = envelope_reducer(collected, [model.to_state()])
    assert len(collected) == 6 and not any(e["persisted"] for e in collected)

    persist_write = [
        {"envelope_id": e["envelope_id"], "persisted": True, "structured": None} for e in collected
    ]
    after = envelope_reducer(collected, persist_write)
    assert len(after) == 6
    assert ids(after) == ids(collected)
    assert all(e["persisted"] is True and e["structured"] is None for e in after)
    assert [e["task_key"] for e in after] == [e["task_key"] for e in collected]  # the rest kept
    # persist running again (crash after the DB write, before the checkpoint) changes nothing
    assert envelope_reducer(after, persist_write) == after
    # a re-dispatched worker's fresh result flips it back to not persisted, still once
    redo = dict(collected[2], structured={"answer": "new"}, persisted=False)
    again = envelope_reducer(after, [redo])
    assert len(again) == 6
    assert again[2]["persisted"] is False and again[2]["structured"] == {"answer": "new"}
