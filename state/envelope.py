"""The envelope: one worker's result for one task, and its deterministic identity.

An envelope lives in graph state as a plain ``dict`` (plain dicts checkpoint cleanly with
LangGraph's serializer); the :class:`Envelope` model validates it at the edges: when a worker
builds one, and when the results store reads one back.

The identity of an envelope is :func:`make_envelope_id`: derived only from the task's own inputs
(worker name, task key, ``as_of``), never from LangGraph's runtime ``task_id``. That one is a hash
of the checkpoint id, the step and the task's position in the ``Send`` list: measured on langgraph
1.2.24 it stays the same across a ``RetryPolicy`` retry and a resume of the same task, but it is
new when the same work is sent again in a later superstep (a re-dispatch round) and when the
thread is run again, so it would give the same logical work a new identity (and the database a
new row). ``tests/state/test_task_id.py`` pins those facts.

Example:
    >>> eid = make_envelope_id("docs_search", "What is a checkpointer?", "2026-11-30")
    >>> eid == make_envelope_id("docs_search", "What is a checkpointer?", "2026-11-30")
    True
    >>> eid.startswith("docs_search:2026-11-30:")
    True
    >>> env = Envelope(envelope_id=eid, worker="docs_search", as_of="2026-11-30",
    ...                task_key="What is a checkpointer?", structured={"passages": []})
    >>> env.to_state()["persisted"]
    False
"""

from __future__ import annotations

import calendar
import datetime as _dt
import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = [
    "AS_OF_YEARS",
    "KEPT",
    "Envelope",
    "EnvelopeStatus",
    "attempt_failed",
    "envelope_key",
    "make_envelope_id",
    "normalize_as_of",
    "task_fields",
    "today_utc",
]

EnvelopeStatus = Literal["ok", "error"]

KEPT = "kept"
"""The field :func:`state.envelope_reducer` sets on an ok envelope whose latest attempt failed
(rule 8: an error never replaces an ok result): ``{"round": the kept result's round, "error":
the failed attempt's error}``. The envelope's own ``round`` is then the failed attempt's, every
other field the kept result's; a later ok result removes it."""

_ID_DIGEST_CHARS = 20  # 80 bits of sha256: collisions are not a practical concern.


def today_utc() -> str:
    """Today's date in UTC, ``YYYY-MM-DD``: the ``as_of`` of a run or a search that names none
    (``app.settings.checks.as_of_or_today``, the run's default, uses it)."""
    return _dt.datetime.now(_dt.timezone.utc).date().isoformat()


AS_OF_YEARS = (1970, 2100)
"""The years an ``as_of`` may fall in (inclusive): a date outside them is a typo (``3026``,
``0026``), not research."""

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")  # not the locale's: messages are English
_AS_OF_SHAPE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")


def normalize_as_of(as_of: str | _dt.date) -> str:
    """Return ``as_of`` as an ISO ``YYYY-MM-DD`` string: the one parser of ``as_of``, for the
    CLI's ``--as-of``, a LangGraph Server client's input and every envelope.

    Args:
        as_of: a ``datetime.date`` (a ``datetime`` is cut to its date) or an ISO date string
            (surrounding blanks ignored).

    Raises:
        ValueError: one line saying which: the string is empty; it is not written
            ``YYYY-MM-DD``; it is written so but there is no such date (``2026-02-30``); or its
            year is outside :data:`AS_OF_YEARS`.

    Example:
        >>> normalize_as_of(" 2026-03-07 ")
        '2026-03-07'
        >>> normalize_as_of("2026-02-30")
        Traceback (most recent call last):
        ...
        ValueError: as_of '2026-02-30': there is no such date (February 2026 has 28 days)
    """
    if isinstance(as_of, _dt.datetime):
        as_of = as_of.date()
    if isinstance(as_of, _dt.date):
        return _in_years(as_of, as_of).isoformat()
    text = str(as_of).strip()
    if not text:
        raise ValueError("as_of is empty; give a date written YYYY-MM-DD")
    shape = _AS_OF_SHAPE.fullmatch(text)
    if shape is None:
        raise ValueError(f"as_of must be a date written YYYY-MM-DD, got {as_of!r}")
    year, month, day = (int(part) for part in shape.groups())
    try:
        date = _dt.date(year, month, day)
    except ValueError:
        raise ValueError(f"as_of {text!r}: there is no such date ({_why_no_date(year, month)})"
                         ) from None
    return _in_years(date, text).isoformat()


def _why_no_date(year: int, month: int) -> str:
    if not 1 <= month <= 12:
        return f"there is no month {month}"
    if year < 1:
        return "there is no year 0"
    days = calendar.monthrange(year, month)[1]
    return f"{_MONTHS[month - 1]} {year} has {days} days"


def _in_years(date: _dt.date, given: object) -> _dt.date:
    low, high = AS_OF_YEARS
    if not low <= date.year <= high:
        raise ValueError(f"as_of {str(given)!r}: the year must be between {low} and {high}")
    return date


def make_envelope_id(worker: str, task_key: str, as_of: str | _dt.date) -> str:
    """Derive the deterministic identity of one logical unit of work.

    The id is ``"{worker}:{as_of}:{digest}"`` where ``digest`` is the first 20 hex characters of
    the sha256 of the JSON array ``[worker, task_key, as_of]``. JSON encoding keeps the parts
    apart (no separator ambiguity: ``("a:b", "c")`` and ``("a", "b:c")`` differ), and sha256 is
    the same in every process on every day, unlike ``hash()``.

    Args:
        worker: the worker's registered name, e.g. ``"docs_search"``.
        task_key: what the task is about, usually the sub-question text, used exactly as given.
        as_of: the research date (``date`` or ``YYYY-MM-DD``).

    Returns:
        The envelope id, readable at a glance in the database and in checkpoints.

    Raises:
        ValueError: when ``worker`` is empty or ``as_of`` is not a date.

    Source of the idea: LangGraph's own ``task_id`` is tied to one checkpoint and superstep (new
    in a re-dispatch round and in a re-run of the thread), so keys that must survive
    re-dispatches and re-runs have to come from the task's inputs (docs/architecture.md, "The
    envelope contract").
    """
    if not worker or not str(worker).strip():
        raise ValueError("make_envelope_id needs a non-empty worker name")
    day = normalize_as_of(as_of)
    payload = json.dumps([str(worker), str(task_key), day], ensure_ascii=False)
    digest = hashlib.sha256(payload.encode("utf-8")).hexdigest()[:_ID_DIGEST_CHARS]
    return f"{worker}:{day}:{digest}"


def envelope_key(entry: dict[str, Any]) -> str:
    """Return the upsert key of an envelope dict, the id it is stored under.

    1. its ``envelope_id``, when set (non-empty);
    2. else, when it has ``worker``, ``as_of`` and a non-empty ``task_key``,
       ``make_envelope_id(worker, task_key, as_of)``: the very id the worker node wrapper stamps,
       so envelopes written without an id by a node of your own stay one per task (two
       sub-questions of one worker and day never merge) and merge with a stamped write of the
       same task;
    3. else ``f"{worker}:{as_of}"``: one envelope per worker and day.

    :func:`state.envelope_reducer` stores every envelope with this key as its ``envelope_id``, so
    whatever reads the channel (persist, the results store) always finds one
    (docs/architecture.md, "The reducer rules").

    Args:
        entry: an envelope as a dict (only ``envelope_id``, ``worker``, ``as_of`` and
            ``task_key`` are read).

    Raises:
        ValueError: when the entry has no ``envelope_id`` and lacks ``worker`` or ``as_of``, or
            has a ``task_key`` but an ``as_of`` that is not a date; the message names the entry,
            because silently collapsing unrelated keyless entries under one key would lose
            results.

    Example:
        >>> envelope_key({"worker": "notes", "as_of": "2026-11-30"})
        'notes:2026-11-30'
        >>> envelope_key({"worker": "notes", "as_of": "2026-11-30", "task_key": "q"}) == (
        ...     make_envelope_id("notes", "q", "2026-11-30"))
        True
    """
    eid = entry.get("envelope_id")
    if eid:
        return str(eid)
    worker, as_of, task_key = entry.get("worker"), entry.get("as_of"), entry.get("task_key")
    if worker and as_of:
        if not task_key:
            return f"{worker}:{as_of}"
        try:
            return make_envelope_id(str(worker), str(task_key), as_of)
        except ValueError as exc:
            raise ValueError(f"envelope without an envelope_id: {exc}: {_shown(entry)}") from None
    raise ValueError(f"envelope has neither an envelope_id nor worker and as_of: {_shown(entry)}")


def attempt_failed(envelope: Mapping[str, Any]) -> bool:
    """True when the latest attempt of the envelope's task failed: its status is ``error``, or
    it holds an earlier ok result kept over that failure (:data:`KEPT`). Such a task counts as
    failed in its run (sent again while rounds are left, named in ``failed_tasks``).

    Example:
        >>> attempt_failed({"status": "error"}), attempt_failed({"status": "ok"})
        (True, False)
        >>> attempt_failed({"status": "ok", "kept": {"round": 1, "error": "E"}})
        True
    """
    return envelope.get("status") == "error" or isinstance(envelope.get(KEPT), Mapping)


def _shown(entry: dict[str, Any]) -> str:
    shown = repr(entry)
    return shown if len(shown) <= 200 else shown[:197] + "..."


class Envelope(BaseModel):
    """One worker result, validated. Stored in state as ``Envelope.to_state()`` (a plain dict).

    Attributes:
        envelope_id: deterministic id from :func:`make_envelope_id`.
        worker: the worker's registered name.
        as_of: ``YYYY-MM-DD``; the point in time the research is "as of".
        task_key: the task the worker did (the sub-question).
        status: ``"ok"``, or ``"error"`` with ``error`` set.
        error: one line saying what went wrong, for ``status="error"``.
        structured: the payload (findings, passages, citations); persist sets it to None once the
            database holds it.
        persisted: True once the current content is in the results database.
        attempts: how many attempts (LangGraph retries included) produced this result.
        round: the dispatch round (1 for the first map step, 2+ for re-dispatches); left out
            of :meth:`to_state` when not given (see there).
        task_id: LangGraph's runtime task id of the producing attempt: telemetry only, never a key.
        tokens: model tokens this result cost (0 offline).
    """

    model_config = ConfigDict(extra="allow")

    envelope_id: str = Field(min_length=1)
    worker: str = Field(min_length=1)
    as_of: str
    task_key: str = ""
    status: EnvelopeStatus = "ok"
    error: str | None = None
    structured: dict[str, Any] | None = None
    persisted: bool = False
    attempts: int = 1
    round: int = 1
    task_id: str | None = None
    tokens: int = 0

    @field_validator("as_of", mode="before")
    @classmethod
    def _as_of_is_a_date(cls, value: Any) -> str:
        return normalize_as_of(value)

    def to_state(self) -> dict[str, Any]:
        """Return the envelope as the plain dict that goes into the ``envelopes`` channel.

        ``round`` is in it only when it was given: the model's default (1) would make a write
        look like round 1, and :func:`state.envelope_reducer` ignores an update whose round is
        lower than the stored one's (a stale echo). Readers take a missing round as 1.
        """
        out = self.model_dump(mode="json")
        if "round" not in self.model_fields_set:
            del out["round"]
        return out


def task_fields(worker: str, task: Mapping[str, Any]) -> dict[str, Any]:
    """The fields an envelope takes from the task that produced it: its ``envelope_id`` (from
    ``worker``, the sub-question and ``as_of``), ``worker``, ``as_of``, ``task_key`` and
    ``round``. The one place a task becomes an envelope's identity, whoever writes it (the
    worker node, or its guard when the node misbehaves). ``round`` only when the task has one.

    Args:
        worker: the worker's registered name.
        task: a :class:`state.Task` (``sub_question``, ``as_of``, optional ``round``).

    Example:
        >>> fields = task_fields("docs_search", {"sub_question": "q", "as_of": "2026-11-30"})
        >>> fields["envelope_id"] == make_envelope_id("docs_search", "q", "2026-11-30")
        True
    """
    fields = {
        "envelope_id": make_envelope_id(worker, task["sub_question"], task["as_of"]),
        "worker": worker,
        "as_of": task["as_of"],
        "task_key": task["sub_question"],
    }
    if "round" in task:  # never a default: a made-up round 1 would be judged a stale echo
        fields["round"] = task["round"]
    return fields
