"""The end of a run as the CLI reports it: :class:`RunSummary`, read from the final checkpoint
(the graph's own ``outcome``) and checked against the results database.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, NamedTuple

from app.research.notes import coalesce_notes
from app.research.outcome import MISSING_ROW, run_outcome
from app.research.relevance import relevance_warnings
from app.research.rounds import current_envelopes
from app.storage import ResultsStore, Storage
from state import envelope_key

__all__ = ["RunSummary", "channel_check", "summarize_run"]


@dataclass
class RunSummary:
    """The end of a run, as the CLI prints it (and ``--json`` emits it)."""

    thread_id: str
    topic: str
    as_of: str
    model: str
    corpus: str
    resumed_from_step: int | None
    sub_questions: list[str]
    envelopes: int
    expected: int
    db_rows: int
    """The thread's rows in the results database: ``envelopes`` when all is well."""
    missing_rows: int
    duplicates: int
    persisted: int
    errors: list[dict[str, str]]
    report_path: str | None
    tokens: int
    elapsed_seconds: float
    notes: list[str]
    outcome: str = "failed"
    """The graph's verdict (state ``outcome``): ``ok``, ``partial`` or ``failed``."""
    failed_tasks: list[dict[str, Any]] | None = None
    """The graph's ``failed_tasks``: ``{envelope_id, worker, task_key, error, kept}`` each
    (``kept``: an earlier ok result of the task was kept; see
    :func:`app.research.outcome.run_outcome`)."""
    warnings: list[dict[str, str]] = field(default_factory=list)
    """``[{"code", "message"}]`` about what the run found (e.g. ``no_relevant_sources``: see
    :mod:`app.research.relevance`); empty when all is well. A warning does not make the run fail."""
    crash_unreached: str | None = None
    """Set when a ``--crash-at`` point was given and the run ended without reaching it: why
    (``app.runs.faults.FaultPlan.unreached``); the CLI then exits 1."""

    @property
    def ok(self) -> bool:
        """True when the graph's outcome is ``ok``, the run wrote its report, and every
        expected envelope is in the database and in the checkpoint once, marked persisted."""
        return (
            self.outcome == "ok"
            and bool(self.report_path)
            and not self.errors
            and self.duplicates == 0
            and self.missing_rows == 0
            and self.db_rows == self.envelopes == self.expected == self.persisted
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (``ok`` included)."""
        return {**asdict(self), "ok": self.ok}


def _key(entry: dict[str, Any]) -> str:
    """The reducer's key of ``entry`` (:func:`state.envelope_key`); an entry it cannot key is
    its own (a reducer that appends lets such an entry in; it is no duplicate of another)."""
    try:
        return envelope_key(entry)
    except ValueError:
        return f"unkeyed:{id(entry)}"


def channel_check(final: dict[str, Any]) -> tuple[int, list[str]]:
    """Check the whole ``envelopes`` channel of a finished run: one entry per ``envelope_id``,
    each marked persisted. Returns ``(extra entries, notes)``.

    An upsert reducer keeps each id once whatever is written again; a reducer that appends
    (``operator.add``, the obvious workshop swap) keeps the worker's entry *and* persist's
    ``persisted=True`` write-back as two entries, so the first run already shows it here (the
    database upserts, so its rows alone would look fine until the next run).
    """
    entries = [e for e in final.get("envelopes") or [] if isinstance(e, dict)]
    keys = [_key(e) for e in entries]
    extra = len(keys) - len(set(keys))
    notes = []
    if extra:
        notes.append(
            f"the envelopes channel holds {len(keys)} entries for {len(set(keys))} envelope "
            "ids: its reducer appends writes instead of upserting by envelope_id (is "
            "`envelopes` still Annotated[..., envelope_reducer] in state/schema.py? "
            "operator.add keeps persist's persisted=True write-back as a second entry)"
        )
    unpersisted = [e for e in current_envelopes(final) if not e.get("persisted")]
    if final.get("report_path") and unpersisted:
        notes.append(
            f"{len(unpersisted)} envelope(s) in the checkpoint are not marked persisted although "
            "persist ran: its write-back did not update them in place"
        )
    return extra, notes


def summarize_run(final: dict[str, Any], *, storage: Storage, thread_id: str, topic: str,
                  as_of: str, labels: dict[str, str], workers: int,
                  resumed_from: int | None, started: float, recompute: str = "") -> RunSummary:
    """Summarize a finished run from its final state and the results database, and record it
    in the ``runs`` table (``finished`` when ok, else ``failed``).

    Args:
        final: the thread's state after the run (``graph.get_state(config).values``).
        storage: where the run's rows are (:mod:`app.storage`).
        labels: ``model`` and ``corpus`` descriptions.
        workers: how many workers the graph fans out to (tasks = sub-questions x workers).
        started: ``time.perf_counter()`` at the start of the run.
        recompute: the command that runs the thread again on its sources, named in the note
            on rows missing from the results database ("": "the thread's research command").

    Raises:
        app.storage.StorageVanished: the data dir or its checkpoint or results database was
            deleted during the run, or its thread lock was lost
            (:class:`app.storage.ThreadLockLost`): nothing is summarized or recorded (the rows
            alone would claim success).
    """
    if lost := storage.lost():
        raise lost
    envelopes = current_envelopes(final)
    ids = [e["envelope_id"] for e in envelopes]
    outcome, failed = _outcome(final)
    channel_extra, channel_notes = channel_check(final)
    with storage.results() as store:
        rows = _count_rows(store, thread_id, ids, channel_extra)
        summary = RunSummary(
            thread_id=thread_id,
            topic=topic,
            as_of=as_of,
            model=labels["model"],
            corpus=labels["corpus"],
            resumed_from_step=resumed_from,
            sub_questions=list(final.get("sub_questions") or []),
            envelopes=len(envelopes),
            expected=_expected(final, workers),
            db_rows=rows.db_rows,
            missing_rows=rows.missing,
            duplicates=rows.duplicates,
            persisted=sum(1 for e in envelopes if e.get("persisted")),
            errors=_errors(failed),
            report_path=final.get("report_path"),
            tokens=int(final.get("tokens") or 0),
            elapsed_seconds=round(time.perf_counter() - started, 2),
            notes=_notes(final, channel_notes, rows.missing, rows.db_rows - rows.present,
                         recompute),
            outcome=outcome,
            failed_tasks=failed,
            warnings=_warnings(final, topic, lambda: store.rows(ids, thread_id=thread_id)),
        )
        _record_end(store, summary)
    return summary


class _RowCounts(NamedTuple):
    """What :func:`_count_rows` counted."""

    db_rows: int
    """Every row of the thread."""
    present: int
    """The rows of the run's envelopes."""
    duplicates: int
    """Envelope ids twice in the run, rows sharing a logical task, extra channel entries."""
    missing: int
    """The run's envelopes without a row."""


def _count_rows(store: ResultsStore, thread_id: str, ids: list[str], channel_extra: int
                ) -> _RowCounts:
    """The thread's rows checked against the run's envelope ``ids``, counted with the payloads
    left unread; ``channel_extra``: the extra entries :func:`channel_check` found."""
    db_rows = store.count(thread_id=thread_id)
    present = store.count_of(ids, thread_id=thread_id)
    duplicates = (len(ids) - len(set(ids))) + store.duplicate_count() + channel_extra
    return _RowCounts(db_rows, present, duplicates, len(set(ids)) - present)


def _errors(failed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The summary's ``errors``: ``{worker, sub_question, error, kept}`` of each failed task,
    but those failed for a missing row (:data:`~app.research.outcome.MISSING_ROW`): the
    summary counts them (``missing_rows``) and one note names them with the way on."""
    return [{"worker": t["worker"], "sub_question": t["task_key"], "error": t.get("error") or "",
             "kept": bool(t.get("kept"))} for t in failed if t.get("error") != MISSING_ROW]


def _record_end(store: ResultsStore, summary: RunSummary) -> None:
    """Record how the run ended in the ``runs`` table: ``finished`` when ok, ``partial`` when
    some tasks failed for good (its ``outcome``), else ``failed``, with its tokens, report and
    summary. (``threads`` once said ``failed`` for a partial run, also for a rerun whose failed
    tasks kept their earlier results, every row ok.)"""
    status = ("finished" if summary.ok else
              "partial" if summary.outcome == "partial" else "failed")
    store.finish_run(summary.thread_id, status=status,
                     tokens=summary.tokens, report_path=summary.report_path,
                     summary=summary.to_dict())


def _outcome(final: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """The graph's ``outcome`` and ``failed_tasks`` in ``final`` (judged by
    :func:`app.research.outcome.run_outcome` for a state written before the graph recorded
    them)."""
    outcome, failed = final.get("outcome"), final.get("failed_tasks")
    if outcome is None:
        outcome, failed = run_outcome(final)
    return outcome, list(failed or [])


def _expected(final: dict[str, Any], workers: int) -> int:
    """The envelopes the run should leave: sub-questions x the workers routed (``workers``
    when the state has no routing), less the results a reviewer dropped (neither persisted nor
    reported)."""
    routed = (final.get("routing") or {}).get("workers") or range(workers)
    return (len(final.get("sub_questions") or []) * len(routed)
            - len(set(final.get("dropped") or [])))


def _notes(final: dict[str, Any], channel_notes: list[str], missing: int, stray: int,
           recompute: str = "") -> list[str]:
    """The run's notes, one line per stretch of rounds (``--rounds 1000``: one, not 999), then
    what the channel check found, then rows missing from the results database and rows of the
    thread that are none of its envelopes (``stray``)."""
    notes = coalesce_notes(final.get("notes") or []) + channel_notes
    if stray:
        notes.append(
            f"{stray} row(s) of this thread in the results database belong to none of its "
            "current envelopes (another plan or as_of): the thread's rows are not those of "
            "its state"
        )
    if missing:
        command = recompute or "the thread's research command"
        notes.append(
            f"{missing} envelope(s) are marked persisted in the checkpoint but missing from "
            "the results database (was it deleted?); recompute them with "
            f"{command} (`resume` has "
            "nothing left to run on a finished thread)"
        )
    return notes


def _warnings(final: dict[str, Any], topic: str,
              db_rows: Callable[[], list[Any]]) -> list[dict[str, str]]:
    """The report node's warnings, kept in state; judged here
    (:func:`app.research.relevance.relevance_warnings`) for a state without them (or without
    an ``outcome``: ``plan`` empties them until ``report`` judges), on the rows ``db_rows()``
    reads (only then: a finished run's payloads are never decoded here)."""
    if final.get("warnings") is not None and final.get("outcome") is not None:
        return list(final["warnings"])
    return [w.to_dict() for w in relevance_warnings(topic, db_rows())]
