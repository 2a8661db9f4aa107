"""Example tests for envelope_reducer's rule 6 of docs/architecture.md ("The reducer rules"):
the per-list key-index cache changes no result.

Proves: folding an older value again, or a list the caller changed in place (append, replace,
delete, reorder, clear, a stored dict's other fields), or a hand-made list with repeated keys,
gives what a fresh fold gives; the one stated limit (a stored dict's ``envelope_id`` changed in
place) is pinned, so the test fails if the cache learns to see it and the limit's comment in
state/fold.py must go.
"""

from __future__ import annotations

import copy

import pytest

from state import envelope_reducer
from tests.state._reducer_helpers import AS_OF, env, fold, ids


def fresh(value: list[dict]) -> list[dict]:
    """A deep copy: a new list object (and new dicts), so the reducer has no cached index for it."""
    return copy.deepcopy(value)


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
    # The one in-place edit the cache does not see (state/fold.py says so where the cache is
    # defined): a stored dict's envelope_id changed in place. Folded without the cache, the
    # update merges into it; with it, the id is kept twice. If the cache learns to see this, this
    # test fails: then the comment's limit is gone and both should say so.
    lst = _cached_list()
    lst[0]["envelope_id"] = "z"
    expected = envelope_reducer(fresh(lst), env("z", v=1))
    assert ids(expected) == ["z", "b", "c"]
    out = envelope_reducer(lst, env("z", v=1))
    assert ids(out) == ["z", "b", "c", "z"]


def test_writing_the_old_id_after_an_in_place_id_change_reindexes_the_list():
    # The index still maps the old id to the dict that now carries another: the reducer sees the
    # disagreement, indexes the list itself, and from then on gives the cache-free result (the
    # old id is a new envelope; the new id, written after it, merges into the renamed dict).
    lst = _cached_list()
    lst[0]["envelope_id"] = "z"
    write = [env("a", v=1), env("z", v=2)]
    out = envelope_reducer(lst, write)
    assert out == envelope_reducer(fresh(lst), write)
    assert ids(out) == ["z", "b", "c", "a"]
    assert [e["v"] for e in out] == [2, 0, 0, 1]


class _RefusesEquality:
    """A field value whose ``==`` raises (as a NumPy array's truth value does)."""

    def __eq__(self, other):
        raise ValueError("no ==")

    __hash__ = object.__hash__


def test_an_item_replaced_by_one_that_refuses_equality_is_indexed_afresh():
    lst = _cached_list()
    odd = _RefusesEquality()
    lst[0] = env("a", v=odd)  # comparing it with the snapshot's item raises
    out = envelope_reducer(lst, [env("a", w=1), env("d")])
    assert ids(out) == ["a", "b", "c", "d"]
    assert out[0]["v"] is odd and out[0]["w"] == 1


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


# --- the cache never outlives the value it indexes (trial 25, finding 11) -----------------------


def test_a_dropped_value_leaves_nothing_of_its_payloads_behind():
    # The cache held the last 32 lists it returned, strongly: in a server process a thread
    # paused, failed or finished kept its payloads alive (177 MB for 32 x 1,200 x 4 KB).
    import gc
    import tracemalloc

    def thread(t: int) -> int:
        value: list[dict] = []
        for i in range(300):  # one write per Send task, as LangGraph folds them
            text = f"{t}:{i}" + "x" * 4000  # distinct payloads, 4 KB each
            value = envelope_reducer(value, env(f"{t}:{i}", structured={"text": text}))
        return len(value)

    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        assert [thread(t) for t in range(4)] == [300] * 4  # 4.8 MB of payloads, then dropped
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held < 200_000, f"{held / 1e6:.1f} MB still held after the values were dropped"


def test_a_live_value_is_folded_from_its_cached_index(monkeypatch):
    # held weakly, the index is still there for the value the channel holds: folding N writes
    # keys each envelope about once, never the whole list again per write (N * N / 2)
    from state import fold as fold_module

    calls = {"keyed": 0}
    real = fold_module.envelope_key

    def counted(entry):
        calls["keyed"] += 1
        return real(entry)

    monkeypatch.setattr(fold_module, "envelope_key", counted)
    value: list[dict] = []
    for i in range(2000):
        value = envelope_reducer(value, env(f"e{i}"))
    assert len(value) == 2000 and calls["keyed"] < 3 * 2000, calls
