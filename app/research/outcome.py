"""The run's outcome once its rounds have stopped, as pure functions of state (and of its rows
read back): ``ok``, ``partial`` or ``failed`` and the failed tasks, whether a reviewer dropped
every result, and the note for failures whose earlier results were kept. Split from
:mod:`app.research.rounds`, whose current envelopes they read; the ``report`` node and the
CLI's summary call them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.research.rounds import current_envelopes, state_texts
from state import KEPT, ResearchState, attempt_failed

__all__ = ["MISSING_ROW", "dropped_all", "kept_notes", "run_outcome"]


MISSING_ROW = "its row is missing from the results database"
"""A failed task's ``error`` when its envelope has no row (:func:`run_outcome`)."""


def run_outcome(state: ResearchState, rows: Sequence[Mapping[str, Any]] | None = None
                ) -> tuple[str, list[dict[str, Any]]]:
    """The run's outcome from its current envelopes: ``("ok" | "partial" | "failed",
    failed_tasks)``, each failed task ``{envelope_id, worker, task_key, error, kept}``.

    ``kept`` says an earlier ok result of the task was kept over this run's failure: in state
    (reducer rule 8; ``error`` is then the failure's), or in ``rows``, the run's rows read back
    (``envelope_id``, ``status``): the results database never replaces an ok row by an error,
    whatever the state held. With ``rows`` read, an envelope that has none is a failed task
    too (``error``: :data:`MISSING_ROW`): a state edit or a thread's copy marked it persisted,
    or skipped ``persist``, and the served verdict said ``ok`` over a database missing the
    rows (the CLI's summary counted them, the graph did not).
    ``partial``: some tasks failed for good (after every round);
    ``failed``: all of them did (or the run has no task at all), earlier results kept or not.
    A run whose every result a reviewer dropped (:func:`dropped_all`) is ``ok``: no task
    failed, keeping nothing was the review's decision (it once ended ``failed``, exit 1,
    with no failed task and no line saying why).

    Example:
        >>> state = {"sub_questions": ["q"], "as_of": "d", "envelopes": [
        ...     {"envelope_id": "a", "worker": "w", "task_key": "q", "as_of": "d",
        ...      "status": "ok", "kept": {"round": 1, "error": "E"}},
        ...     {"envelope_id": "b", "worker": "v", "task_key": "q", "as_of": "d",
        ...      "status": "error", "error": "F"}]}
        >>> run_outcome(state, [{"envelope_id": "b", "status": "ok"}])
        ('failed', [{'envelope_id': 'a', 'worker': 'w', 'task_key': 'q', 'error': 'E', \
'kept': True}, {'envelope_id': 'b', 'worker': 'v', 'task_key': 'q', 'error': 'F', 'kept': True}])
    """
    envelopes = current_envelopes(state)
    ok_rows = {r["envelope_id"] for r in rows or () if r.get("status", "ok") == "ok"}
    found = None if rows is None else {r["envelope_id"] for r in rows}
    failed = [
        {"envelope_id": e["envelope_id"], "worker": e["worker"], "task_key": e["task_key"],
         "error": (_kept(e) or e).get("error") or "",
         "kept": _kept(e) is not None or e["envelope_id"] in ok_rows}
        for e in envelopes if attempt_failed(e)
    ]
    if found is not None:  # a result the database does not hold is no result
        failed += [{"envelope_id": e["envelope_id"], "worker": e["worker"],
                    "task_key": e["task_key"], "error": MISSING_ROW, "kept": False}
                   for e in envelopes if e["envelope_id"] not in found and not attempt_failed(e)]
    if not envelopes and dropped_all(state):
        return "ok", []
    if not envelopes or len(failed) == len(envelopes):
        return "failed", failed
    return ("partial" if failed else "ok"), failed


def dropped_all(state: Mapping[str, Any]) -> int:
    """How many results of this run a reviewer dropped, when they were all of them (no current
    envelope is left); else 0.

    Example:
        >>> dropped_all({"sub_questions": ["Why?"], "as_of": "d", "dropped": ["c:1"],
        ...              "envelopes": [{"envelope_id": "c:1", "task_key": "Why?", "as_of": "d"}]})
        1
    """
    if current_envelopes(state):  # type: ignore[arg-type]
        return 0
    questions, as_of = set(state_texts(state.get("sub_questions"))), state.get("as_of")
    dropped = set(state_texts(state.get("dropped")))
    return len({e.get("envelope_id") for e in state.get("envelopes") or []
                if e.get("envelope_id") in dropped and e.get("task_key") in questions
                and e.get("as_of") == as_of})


def _kept(envelope: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The failed attempt an ok envelope was kept over (``{"round", "error"}``), or None."""
    mark = envelope.get(KEPT)
    return mark if isinstance(mark, Mapping) else None


def kept_notes(failed_tasks: Sequence[Mapping[str, Any]]) -> list[str]:
    """The one note for the failed tasks whose earlier result was kept (:func:`run_outcome`),
    or none.

    Example:
        >>> kept_notes([{"kept": True}, {"kept": False}, {"kept": True}])
        ['2 task(s) failed in this run and their earlier results were kept (rows unchanged)']
    """
    kept = sum(1 for t in failed_tasks if t.get("kept"))
    if not kept:
        return []
    return [f"{kept} task(s) failed in this run and their earlier results were kept "
            "(rows unchanged)"]
