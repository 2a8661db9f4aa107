"""Example tests for the other reducers of state/reducers.py: ``dedupe_extend``,
``merge_dicts``, ``capped_list``, ``concat_lists``, ``keep_latest`` and ``add_counts``.

Proves each one's fold (what it keeps, drops or sums), that a single value is accepted where a
list is, that None is empty, and that the caller's value is never mutated.
"""

from __future__ import annotations

import pytest

from state import add_counts, capped_list, concat_lists, dedupe_extend, keep_latest, merge_dicts


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
