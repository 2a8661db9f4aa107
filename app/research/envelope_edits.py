"""Whether the envelopes a state edit left can be persisted and reported: what
:func:`app.research.plan_check.check_plan` asks of the ``envelopes`` channel before a node
dispatches, routes, persists or reports.

Only a state edit (``update_state(config, {"envelopes": [...]}, as_node=...)``, Studio's "edit
state") writes an envelope no worker made: the worker nodes stamp every field from their task
(:func:`state.task_fields`). Unchecked, an edit wrote rows no run produced and failed runs
with a traceback (trial 64): ``"structured": "xxx"`` ended every later run of the thread with
``AttributeError`` in the report, ``"worker": None`` with ``sqlite3.IntegrityError`` ("An
internal error occurred" to a server client), ``"status": "weird"`` and ``"attempts": -1``
were saved as given, and an envelope of a worker the run does not use (``"evil"``) was
persisted and reported as a worker's. Pure (no I/O).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from difflib import SequenceMatcher
from typing import Any

from app.research.text import clip

__all__ = ["envelope_edit_problem", "envelope_field_problem", "round_of", "this_run",
           "unknown_field_problem"]

_TEXT = ("envelope_id", "worker", "as_of")
_COUNTS = (("attempts", 1), ("round", 1), ("tokens", 0))
_MOST = 2**63 - 1
"""The largest count a results database stores (SQLite's and PostgreSQL's ``bigint``)."""


def this_run(state: Mapping[str, Any]) -> int:
    """The first round of this run (envelopes of earlier runs of the thread have lower ones)."""
    routing = state.get("routing")
    first = routing.get("first_round") if isinstance(routing, Mapping) else None
    return first if isinstance(first, int) else 0


def round_of(envelope: Mapping[str, Any], default: int) -> int:
    """An envelope's round (or the state's); ``default`` for one written without (a forker's
    node) or not a whole number: a round it does not claim never makes it older than the run."""
    value = envelope.get("round")
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def envelope_field_problem(envelope: Any) -> str | None:
    """What makes ``envelope`` no envelope to persist or report, in one line, or None: not a
    mapping; ``envelope_id`` (always), ``worker`` or ``as_of`` not non-empty text; ``task_key``
    or ``error`` not text; ``status`` neither ``"ok"`` nor ``"error"``; ``structured`` neither a
    mapping nor None, or None on an ok envelope not yet persisted (its result, lost); an error
    envelope without its ``error``; ``persisted`` not true or false; ``attempts``, ``round``
    or ``tokens`` not a whole number in range (attempts and round from 1, tokens from 0); a
    key no envelope has (:func:`unknown_field_problem`). A field left out passes: the reducer
    merges an update into the stored envelope field by field, so only a reducer other than
    :func:`state.envelope_reducer` (the workshop's ``operator.add``) leaves an entry without one.

    Example:
        >>> envelope_field_problem({"envelope_id": "w:1", "worker": "w", "as_of": "2026-11-30",
        ...                         "structured": "xxx"})
        "its structured must be a mapping or null, got 'xxx'"
        >>> envelope_field_problem({"envelope_id": "w:1", "status": "error", "error": ""})
        'an error envelope must say what went wrong in error, got none'
    """
    if not isinstance(envelope, Mapping):
        return f"it must be a mapping of fields, got {_shown(envelope)}"
    if why := unknown_field_problem(envelope):
        return why
    for key in _TEXT:  # a field left out is the stored envelope's (the reducer merges)
        if (key in envelope or key == "envelope_id") and (
                not isinstance(value := envelope.get(key), str) or not value.strip()):
            return f"its {key} must be non-empty text, got {_shown(value)}"
    for key in ("task_key", "error"):
        if (value := envelope.get(key)) is not None and not isinstance(value, str):
            return f"its {key} must be text, got {_shown(value)}"
    if (status := envelope.get("status", "ok")) not in ("ok", "error"):
        return f"its status must be 'ok' or 'error', got {_shown(status)}"
    if (value := envelope.get("structured")) is not None and not isinstance(value, Mapping):
        return f"its structured must be a mapping or null, got {_shown(value)}"
    if status == "ok" and "structured" in envelope and value is None and not envelope.get(
            "persisted", False):  # trial 67, F4: an ok row of nothing, the result lost
        return "an ok envelope not yet persisted must hold its result in structured, got null"
    if status == "error" and "status" in envelope and not envelope.get("error"):
        return "an error envelope must say what went wrong in error, got none"
    if not isinstance(value := envelope.get("persisted", False), bool):
        return f"its persisted must be true or false, got {_shown(value)}"
    for key, least in _COUNTS:
        if key not in envelope:
            continue
        value = envelope[key]
        if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= _MOST:
            return (f"its {key} must be a whole number from {least} to 2**63 - 1, got "
                    f"{_shown(value)}")
    return None


def unknown_field_problem(envelope: Mapping[str, Any]) -> str | None:
    """One line naming the first key of ``envelope`` that is no envelope field (those of
    :class:`state.Envelope`, the reducer's :data:`state.KEPT` and the worker node's
    ``seconds``, its timing: :func:`workers.base.make_worker_node`), with the closest field
    (by :class:`difflib.SequenceMatcher`'s ratio), or None.

    Only an edit writes one: workers stamp the model's fields and put their payload under
    ``structured``. Neither persisted nor reported, ``{"summary": "EDITED"}`` (the results
    review's own word) was accepted and did nothing, the run ending ``ok`` (N9). The merge keeps
    a stored key an edit leaves out, so the way on is a write of
    :func:`state.delete_envelope` and then the whole envelope.

    Example:
        >>> unknown_field_problem({"envelope_id": "w:1", "summary": "EDITED"})[:50]
        "it has no field 'summary' (closest: 'structured'; "
    """
    from state import KEPT, Envelope

    fields = (*Envelope.model_fields, KEPT, "seconds")
    for key in envelope:
        if key not in fields:
            closest = max(fields, key=lambda f: SequenceMatcher(None, str(key), f).ratio())
            return (f"it has no field {clip(repr(key), 60)} (closest: {closest!r}; the result "
                    "lives in structured.items; to remove the key, write delete_envelope(id) "
                    "and then the whole envelope)")
    return None


def envelope_edit_problem(state: Mapping[str, Any], workers: Sequence[str] | None = None
                          ) -> str | None:
    """One line naming the first envelope a state edit made unfit, else None: fields of the
    wrong type or out of range (:func:`envelope_field_problem`, any envelope: ``persist`` and
    ``report`` read them all); of this run (its ``round`` not below the routing's
    ``first_round``), a ``worker`` the routing does not run (``workers``: the graph's worker
    names, which the routing's ``workers`` narrows; None: not checked, as for the CLI, whose
    forker may add a node of their own that writes envelopes), or an ``envelope_id``
    that is not the one its ``worker``, ``task_key`` and ``as_of`` make
    (:func:`state.make_envelope_id`: persisted, an envelope copied under a new id wrote a second
    row for one task, and one whose ``task_key`` was changed was left out of the rows without a
    word). An earlier run's envelope passes those two: ``persist`` removes it as stale.

    Example:
        >>> from state import make_envelope_id
        >>> good = {"envelope_id": make_envelope_id("w", "q", "2026-11-30"), "worker": "w",
        ...         "task_key": "q", "as_of": "2026-11-30"}
        >>> envelope_edit_problem({"envelopes": [good]}) is None
        True
        >>> envelope_edit_problem({"envelopes": [{**good, "task_key": "other"}]})[:30]
        "envelope 'w:2026-11-30:c60ccec"
        >>> envelope_edit_problem({"envelopes": [good]}, ["docs_search"])[-41:]
        "'w' is not a worker of this run's routing"
    """
    from state import make_envelope_id

    first = this_run(state)
    routing = state.get("routing")
    running = workers
    if workers is not None and isinstance(routing, Mapping):
        running = routing.get("workers", workers)
    for n, e in enumerate(state.get("envelopes") or [], 1):
        if why := envelope_field_problem(e):
            eid = e.get("envelope_id") if isinstance(e, Mapping) else None
            name = repr(clip(eid, 80)) if isinstance(eid, str) and eid else str(n)
            return f"envelope {name}: {why}"
        if round_of(e, first) < first:
            continue
        eid, worker, task_key, as_of = (e.get(k) for k in (
            "envelope_id", "worker", "task_key", "as_of"))
        if running is not None and worker is not None and worker not in running:
            return (f"envelope {clip(eid, 80)!r}: {clip(worker, 40)!r} is not a worker of "
                    "this run's routing")
        if not (worker and task_key and as_of):
            continue
        try:
            made = make_envelope_id(worker, task_key, as_of)
        except ValueError:
            made = None
        if eid != made:
            return (f"envelope {clip(eid, 80)!r} is not the one its worker, task_key and "
                    f"as_of name ({clip(worker, 40)!r}, {clip(task_key, 80)!r}, "
                    f"{clip(as_of, 20)!r}): its row would be written twice or lost")
    return None


def _shown(value: Any) -> str:
    return clip(repr(value), 60)
