"""The summary's check of the ``envelopes`` channel counts entries by the reducer's own key
(``state.envelope_key``): two id-less envelopes of one worker and day but of different
sub-questions are two envelopes, not a duplicate (a ``worker:as_of`` guess said they were)."""

from __future__ import annotations

from app.runs.summary import channel_check
from state import envelope_reducer


def test_id_less_envelopes_of_two_sub_questions_are_not_a_duplicate():
    written = [{"worker": "notes", "as_of": "2026-11-30", "task_key": q, "persisted": True}
               for q in ("first question", "second question")]
    channel = envelope_reducer([], written)  # what the channel holds after the upsert
    assert len(channel) == 2
    extra, notes = channel_check({"envelopes": written})
    assert extra == 0 and notes == []


def test_an_appending_reducer_is_still_caught():
    entry = {"envelope_id": "e1", "worker": "notes", "as_of": "2026-11-30", "task_key": "q",
             "persisted": True}
    extra, notes = channel_check({"envelopes": [entry, {**entry, "structured": None}]})
    assert extra == 1 and "appends writes" in notes[0]
