"""The Envelope model and make_envelope_id (docs/architecture.md, "The envelope contract").

Proves that the model validates at the edge (``as_of`` normalized to ``YYYY-MM-DD``, bad dates
rejected, required fields enforced), that ``to_state()`` is a plain JSON-able dict, and that
``make_envelope_id`` is a deterministic function of (worker, task_key, as_of) only: equal in
another Python process, different when any input differs, free of separator ambiguity, the same
for a ``date`` and its ISO string, and refusing an empty worker.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from state import Envelope, envelope_key, make_envelope_id, normalize_as_of

ROOT = Path(__file__).resolve().parents[2]


def _env(**overrides):
    fields = {"envelope_id": "docs_search:2026-11-30:abc", "worker": "docs_search"}
    fields["as_of"] = "2026-11-30"
    fields.update(overrides)
    return Envelope(**fields)


# --- Envelope model ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "given",
    [
        dt.date(2026, 3, 7),
        dt.datetime(2026, 3, 7, 23, 59, tzinfo=dt.UTC),
        "2026-03-07",
        " 2026-03-07 ",
    ],
)
def test_as_of_is_normalized_to_iso_date(given):
    assert _env(as_of=given).as_of == "2026-03-07"


@pytest.mark.parametrize(
    "bad", ["2026-13-01", "2026-02-30", "2026-3-7", "07/03/2026", "yesterday", "", 20260307]
)
def test_bad_as_of_is_rejected(bad):
    with pytest.raises(ValidationError, match="as_of"):
        _env(as_of=bad)


def test_normalize_as_of_rejects_with_value_error():
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        normalize_as_of("2026-11-3")


@pytest.mark.parametrize(("bad", "said"), [
    ("2026-02-30", "no such date (February 2026 has 28 days)"),
    ("2026-11-31", "no such date (November 2026 has 30 days)"),
    ("2026-13-01", "no such date (there is no month 13)"),
    ("2026-00-01", "no such date (there is no month 0)"),
])
def test_a_date_written_yyyy_mm_dd_that_does_not_exist_is_named_as_such(bad, said):
    """Written the right way, so the error must not say how to write it (issue 21, item 10)."""
    with pytest.raises(ValueError, match=r"no such date") as caught:
        normalize_as_of(bad)
    assert said in str(caught.value) and "YYYY-MM-DD" not in str(caught.value)


@pytest.mark.parametrize("bad", ["1969-12-31", "2101-01-01", "0026-01-01", "3026-11-30",
                                 dt.date(1900, 1, 1), dt.datetime(2200, 1, 1)])
def test_years_outside_1970_to_2100_are_refused(bad):
    with pytest.raises(ValueError, match="between 1970 and 2100"):
        normalize_as_of(bad)


@pytest.mark.parametrize("edge", ["1970-01-01", "2100-12-31", "2024-02-29"])
def test_the_edges_of_the_years_and_leap_days_are_dates(edge):
    assert normalize_as_of(edge) == edge


@pytest.mark.parametrize("empty", ["", "   "])
def test_an_empty_as_of_is_refused_not_today(empty):
    with pytest.raises(ValueError, match="empty"):
        normalize_as_of(empty)


@pytest.mark.parametrize("odd", ["2026-W01-1", "２０２６-01-01", "2026-01-01T00:00"])
def test_other_iso_forms_and_non_ascii_digits_are_not_dates(odd):
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        normalize_as_of(odd)


@pytest.mark.parametrize("field", ["envelope_id", "worker"])
def test_empty_identity_fields_are_rejected(field):
    with pytest.raises(ValidationError):
        _env(**{field: ""})


def test_status_must_be_ok_or_error():
    assert _env(status="error", error="boom").status == "error"
    with pytest.raises(ValidationError):
        _env(status="failed")


def test_to_state_is_a_plain_json_able_dict():
    env = _env(
        as_of=dt.date(2026, 11, 30),
        task_key="What is a checkpointer?",
        structured={"passages": [{"doc": "a.md", "score": 0.5}], "citations": ["a.md"]},
        extra_field="kept",  # extra="allow": unknown fields travel along
    )
    state = env.to_state()
    assert type(state) is dict
    assert json.loads(json.dumps(state)) == state  # JSON round-trip loses nothing
    assert state["as_of"] == "2026-11-30"  # a string, not a date object
    assert state["persisted"] is False and state["status"] == "ok"
    assert state["structured"]["passages"][0]["score"] == 0.5
    assert state["extra_field"] == "kept"
    assert Envelope(**state) == env  # and it validates back to the same model


def test_to_state_returns_a_fresh_dict_each_time():
    env = _env(structured={"x": [1]})
    first = env.to_state()
    first["structured"]["x"].append(2)
    assert env.to_state()["structured"] == {"x": [1]}


# --- make_envelope_id ---------------------------------------------------------------------------


def test_id_is_deterministic_and_readable():
    eid = make_envelope_id("docs_search", "What is a checkpointer?", "2026-11-30")
    assert eid == make_envelope_id("docs_search", "What is a checkpointer?", "2026-11-30")
    worker, day, digest = eid.split(":")
    assert (worker, day) == ("docs_search", "2026-11-30")
    assert len(digest) == 20 and int(digest, 16) >= 0


def test_id_is_the_same_in_another_process():
    args = ("analyst", "Wie funktioniert ein Checkpointer? ünïcode", "2026-11-30")
    code = f"from state import make_envelope_id; print(make_envelope_id(*{args!r}))"
    # A different PYTHONHASHSEED makes sure nothing depends on hash() randomization.
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "12345", "PATH": "", "PYTHONIOENCODING": "utf-8"},
    )
    assert out.stdout.strip() == make_envelope_id(*args)


@pytest.mark.parametrize(
    "other",
    [
        ("critic", "q", "2026-11-30"),
        ("analyst", "q2", "2026-11-30"),
        ("analyst", "q ", "2026-11-30"),  # the task key is used exactly as given
        ("analyst", "q", "2026-12-01"),
    ],
)
def test_any_different_input_gives_a_different_id(other):
    assert make_envelope_id(*other) != make_envelope_id("analyst", "q", "2026-11-30")


def test_no_separator_ambiguity():
    assert make_envelope_id("a:b", "c", "2026-11-30") != make_envelope_id("a", "b:c", "2026-11-30")
    assert make_envelope_id("w", 'x", "y', "2026-11-30") != make_envelope_id("w", "x", "2026-11-30")


def test_date_and_string_as_of_give_the_same_id():
    as_string = make_envelope_id("docs_search", "q", "2026-11-30")
    assert make_envelope_id("docs_search", "q", dt.date(2026, 11, 30)) == as_string
    assert make_envelope_id("docs_search", "q", dt.datetime(2026, 11, 30, 8, 0)) == as_string


@pytest.mark.parametrize("worker", ["", "   ", None])
def test_empty_worker_raises(worker):
    with pytest.raises(ValueError, match="worker"):
        make_envelope_id(worker, "q", "2026-11-30")


def test_bad_as_of_raises():
    with pytest.raises(ValueError, match="as_of"):
        make_envelope_id("docs_search", "q", "30.11.2026")


# --- envelope_key -------------------------------------------------------------------------------


def test_envelope_key_prefers_id_and_falls_back_to_worker_as_of():
    assert envelope_key({"envelope_id": "e1", "worker": "w", "as_of": "2026-11-30"}) == "e1"
    no_id = {"envelope_id": "", "worker": "w", "as_of": "2026-11-30"}
    assert envelope_key(no_id) == "w:2026-11-30"
    assert envelope_key({"worker": "w", "as_of": "2026-11-30"}) == "w:2026-11-30"
    with_task = {"worker": "w", "as_of": "2026-11-30", "task_key": "q"}
    assert envelope_key(with_task) == make_envelope_id("w", "q", "2026-11-30")
    assert envelope_key(dict(with_task, task_key="")) == "w:2026-11-30"
    with pytest.raises(ValueError, match="'worker': 'w'"):
        envelope_key({"worker": "w", "structured": {}})
