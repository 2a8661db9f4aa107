"""Example tests for envelope_reducer, one or more per rule of docs/architecture.md ("The
reducer rules"), plus the other reducers of state/reducers.py.

Proves: upsert by ``envelope_id``, falling back to the id the worker wrapper would stamp (from
``task_key``) and then to ``worker:as_of``, every stored envelope carrying its key as its
``envelope_id``; a keyless entry raises a
ValueError that names it; shallow merge where the later write wins, an absent field keeps its
value and an explicit None clears it; each key once, in first-seen order; inputs never mutated;
None / single dict / single Envelope accepted and models stored as dicts; deletion through
``delete_envelope`` (a missing id is a no-op). And that the per-list key-index cache changes no
result: folding an older value again, or a list the caller changed in place (append, replace,
delete, a stored dict's other fields), or a hand-made list with repeated keys, gives what a fresh
fold gives; the one stated limit (a stored dict's ``envelope_id`` changed in place) is pinned.
"""

from __future__ import annotations

import copy

import pytest

from state import (
    DELETE,
    Envelope,
    add_counts,
    capped_list,
    concat_lists,
    dedupe_extend,
    delete_envelope,
    envelope_reducer,
    keep_latest,
    make_envelope_id,
    merge_dicts,
)

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


def fresh(value: list[dict]) -> list[dict]:
    """A deep copy: a new list object (and new dicts), so the reducer has no cached index for it."""
    return copy.deepcopy(value)


# --- rule 1: the key ----------------------------------------------------------------------------


def test_upsert_by_envelope_id():
    out = fold([env("a", v=1)], [env("b", v=1)], [env("a", v=2)])
    assert ids(out) == ["a", "b"]
    assert [e["v"] for e in out] == [2, 1]


def test_fallback_key_is_worker_and_as_of():
    out = fold(
        [{"worker": "w1", "as_of": AS_OF, "v": 1}],
        [{"worker": "w2", "as_of": AS_OF, "v": 1}],
        [{"worker": "w1", "as_of": AS_OF, "v": 2}],
        [{"envelope_id": "", "worker": "w1", "as_of": AS_OF, "v": 3}],  # empty id: fallback too
        [{"worker": "w1", "as_of": "2026-12-01", "v": 1}],  # another day: another key
    )
    assert ids(out) == ["w1:2026-11-30", "w2:2026-11-30", "w1:2026-12-01"]
    assert [e["v"] for e in out] == [3, 1, 1]


def test_id_less_envelopes_of_one_worker_and_day_stay_one_per_task():
    # the wrapper-less writer's case: no envelope_id, but a task_key per sub-question
    out = fold(
        [{"worker": "w", "as_of": AS_OF, "task_key": "q1", "v": 1}],
        [{"worker": "w", "as_of": AS_OF, "task_key": "q2", "v": 1}],
        [{"envelope_id": None, "worker": "w", "as_of": AS_OF, "task_key": "q1", "v": 2}],
    )
    assert [e["envelope_id"] for e in out] == [
        make_envelope_id("w", "q1", AS_OF), make_envelope_id("w", "q2", AS_OF)]
    assert [e["v"] for e in out] == [2, 1]


def test_an_id_less_write_updates_the_stamped_envelope_of_the_same_task():
    stamped = env(make_envelope_id("w", "q1", AS_OF), task_key="q1", status="error")
    out = fold([stamped], [{"worker": "w", "as_of": AS_OF, "task_key": "q1", "status": "ok"}])
    assert out == [dict(stamped, status="ok")]


def test_every_stored_envelope_carries_its_key_as_envelope_id():
    hand_made = [{"worker": "w", "as_of": AS_OF, "v": 1},
                 {"envelope_id": "", "worker": "w", "as_of": AS_OF, "task_key": "q", "v": 1}]
    before = copy.deepcopy(hand_made)
    out = envelope_reducer(hand_made, [{"envelope_id": "", "worker": "w", "as_of": AS_OF}])
    assert [e["envelope_id"] for e in out] == ["w:2026-11-30", make_envelope_id("w", "q", AS_OF)]
    assert hand_made == before  # stamped in copies, the caller's dicts untouched
    # an empty or None id in a later update does not wipe the stored one
    again = envelope_reducer(out, {"envelope_id": None, "worker": "w", "as_of": AS_OF, "v": 2})
    assert [e["envelope_id"] for e in again] == [e["envelope_id"] for e in out]
    assert again[0]["v"] == 2


def test_an_id_less_envelope_with_a_task_key_needs_a_real_date():
    with pytest.raises(ValueError, match="YYYY-MM-DD.*'task_key': 'q'"):
        envelope_reducer([], {"worker": "w", "as_of": "today", "task_key": "q"})


@pytest.mark.parametrize(
    "keyless",
    [
        {"worker": "lonely", "structured": {"x": 1}},
        {"as_of": AS_OF, "note": "lonely"},
        {"envelope_id": None, "note": "lonely"},
    ],
)
def test_keyless_entry_raises_naming_the_entry(keyless):
    with pytest.raises(ValueError, match="lonely"):
        envelope_reducer([env("a")], [keyless])
    with pytest.raises(ValueError, match="lonely"):
        envelope_reducer([keyless], [])  # in existing too


def test_two_keyless_entries_are_not_collapsed():
    with pytest.raises(ValueError):
        envelope_reducer([], [{"structured": {"x": 1}}, {"structured": {"x": 2}}])


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


# --- the cached key index changes no result (one stated limit) ---------------------------------


def test_folding_an_older_value_again_is_correct():
    a = fold([env("a", v=0)], [env("b", v=0)])
    x = envelope_reducer(a, [env("c", v=1), env("a", v=1)])
    y = envelope_reducer(a, [env("d", v=2), env("b", v=2)])  # a again: its index was taken by x
    assert ids(x) == ["a", "b", "c"] and [e["v"] for e in x] == [1, 0, 1]
    assert ids(y) == ["a", "b", "d"] and [e["v"] for e in y] == [0, 2, 2]
    # and continuing from either branch works
    assert ids(envelope_reducer(x, env("d"))) == ["a", "b", "c", "d"]
    assert ids(envelope_reducer(y, env("c"))) == ["a", "b", "d", "c"]
    assert envelope_reducer(a, []) == fresh(a)


def _cached_list():
    """A list just returned by the reducer (so it owns a cached key index)."""
    return fold([env("a", v=0)], [env("b", v=0)], [env("c", v=0)])


@pytest.mark.parametrize(
    ("mutate", "write"),
    [
        # appended to in place: then an update to the appended key
        (lambda lst: lst.append(env("d", v=0)), env("d", v=1)),
        # an element replaced by a new key: then an update of that new key
        (lambda lst: lst.__setitem__(0, env("z", v=0)), env("z", v=1)),
        # an element replaced by the same key with other content
        (lambda lst: lst.__setitem__(1, env("b", v=5, extra=1)), env("b", v=6)),
        # an element replaced by a copy of another key (a duplicate), then an update of the lost key
        (lambda lst: lst.__setitem__(1, dict(lst[0])), env("b", v=1)),
        # an element deleted: then an update of the deleted key and of a shifted one
        (lambda lst: lst.__delitem__(0), [env("a", v=1), env("c", v=1)]),
        # deleted and appended (same length as before): then an update of the appended key
        (lambda lst: (lst.__delitem__(0), lst.append(env("z", v=0))), env("z", v=1)),
        # reordered in place
        (lambda lst: lst.reverse(), [env("a", v=1), env("d", v=1)]),
        # cleared
        (lambda lst: lst.clear(), env("a", v=1)),
    ],
    ids=[
        "append",
        "replace-new-key",
        "replace-same-key",
        "replace-duplicate",
        "delete",
        "delete-and-append",
        "reverse",
        "clear",
    ],
)
def test_a_list_mutated_in_place_by_the_caller_is_folded_correctly(mutate, write):
    lst = _cached_list()
    mutate(lst)
    expected = envelope_reducer(fresh(lst), write)  # a new list: indexed from scratch
    out = envelope_reducer(lst, write)
    assert out == expected
    assert len(set(ids(out))) == len(out)
    # and the next call (from the cached index of ``out``) continues correctly
    assert envelope_reducer(out, env("q")) == envelope_reducer(fresh(out), env("q"))


def test_replace_then_update_keeps_each_key_once():
    # the concrete scenario the in-place checks exist for
    lst = _cached_list()
    lst[0] = env("z", v=0)
    out = envelope_reducer(lst, env("z", v=1))
    assert ids(out) == ["z", "b", "c"]
    assert out[0]["v"] == 1


def test_in_place_edits_of_other_fields_give_the_cache_free_result():
    lst = _cached_list()
    lst[1]["v"] = 9  # a node editing a stored envelope in place (LangGraph hands it the same dict)
    del lst[2]["v"]
    write = [env("b", w=1), env("c", v=2), env("d")]
    assert envelope_reducer(lst, write) == envelope_reducer(fresh(lst), write)


def test_an_in_place_id_change_is_the_caches_stated_limit():
    # The one in-place edit the cache does not see (state/reducers.py says so where the cache is
    # defined): a stored dict's envelope_id changed in place. Folded without the cache, the
    # update merges into it; with it, the id is kept twice. If the cache learns to see this, this
    # test fails: then the comment's limit is gone and both should say so.
    lst = _cached_list()
    lst[0]["envelope_id"] = "z"
    expected = envelope_reducer(fresh(lst), env("z", v=1))
    assert ids(expected) == ["z", "b", "c"]
    out = envelope_reducer(lst, env("z", v=1))
    assert ids(out) == ["z", "b", "c", "z"]


def test_hand_made_existing_with_repeated_keys_is_folded_to_unique_keys():
    existing = [
        env("a", v=1, x=1),
        env("b", v=1),
        env("a", v=2),
        {"worker": "w", "as_of": AS_OF, "v": 1},
        {"worker": "w", "as_of": AS_OF, "v": 2},
    ]
    before = copy.deepcopy(existing)
    out = envelope_reducer(existing, [env("c")])
    assert existing == before
    assert ids(out) == ["a", "b", "w:2026-11-30", "c"]
    assert out[0] == env("a", v=2, x=1)  # folded in order: later wins, absent kept
    assert out[2]["v"] == 2
    assert envelope_reducer(existing, []) == out[:3]


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


# --- the other reducers -------------------------------------------------------------------------


def test_dedupe_extend():
    assert dedupe_extend(["a", "b"], ["b", "c", "c", "a"]) == ["a", "b", "c"]
    assert dedupe_extend(None, "url") == ["url"]  # a string is one item, not its characters
    existing = ["x"]
    assert dedupe_extend(existing, None) == ["x"] and dedupe_extend(existing, ["y"]) is not existing
    assert existing == ["x"]


def test_merge_dicts():
    existing = {"a": 1, "b": 2}
    assert merge_dicts(existing, {"b": 3, "c": None}) == {"a": 1, "b": 3, "c": None}
    assert existing == {"a": 1, "b": 2}
    assert merge_dicts(None, None) == {}


def test_capped_list():
    keep3 = capped_list(3)
    assert keep3([1, 2, 3], [4, 5]) == [3, 4, 5]
    assert keep3(None, "event") == ["event"]
    with pytest.raises(ValueError):
        capped_list(0)


def test_concat_lists_keeps_duplicates():
    existing = [1]
    assert concat_lists(existing, [1, 2]) == [1, 1, 2]
    assert concat_lists(None, 3) == [3] and concat_lists([3], None) == [3]
    assert existing == [1]


def test_keep_latest():
    latest = keep_latest("at")
    old, new = {"at": "2026-11-30T09:00Z", "s": "old"}, {"at": "2026-11-30T10:00Z", "s": "new"}
    assert latest(old, new) is new
    assert latest(new, old) is new  # applied later but older: loses
    assert latest(None, old) is old and latest(old, {"s": "no stamp"}) is old
    tie = {"at": old["at"], "s": "tie"}
    assert latest(old, tie) is tie


def test_add_counts():
    existing = {"in": 10, "out": 2}
    assert add_counts(existing, {"in": 5, "calls": 1}) == {"in": 15, "out": 2, "calls": 1}
    assert existing == {"in": 10, "out": 2}
    assert add_counts(None, None) == {}
