"""Example tests for envelope_reducer's rule 1 of docs/architecture.md ("The reducer rules"):
the key of an envelope written without an ``envelope_id``.

Proves: without an id, the key is the id the worker wrapper would stamp (from ``task_key``), so
two sub-questions of one worker and day stay two envelopes, and else ``worker:as_of``; every
stored envelope carries its key as its ``envelope_id`` (stamped in copies, and not wiped by a
later empty or None id); a ``task_key`` without a real date, and a keyless entry, raise a
ValueError that names the entry, and two keyless entries are never collapsed into one.
"""

from __future__ import annotations

import copy

import pytest

from state import envelope_reducer, make_envelope_id
from tests.state._reducer_helpers import AS_OF, env, fold, ids

# --- rule 1: the key, when an envelope has no id --------------------------------------------------


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
