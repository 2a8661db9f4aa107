"""The settings of a command that continues a thread: ``review THREAD_ID``, ``resume
THREAD_ID``, and ``research TOPIC`` when its thread is unfinished (or paused for review). The
thread's run recorded its ``--out`` (:mod:`app.runs.recorded_out`), and the command writes its
report there and prints it in its continue lines; an ``--out`` it names wins, with a note."""

from __future__ import annotations

import sys
from typing import Any

from app.cli.checks import validate_paths
from app.research.text import visible
from app.settings.config import Settings

__all__ = ["continuing", "continuing_topic"]


def continuing(settings: Settings, thread_id: str, *, runs: bool,
               recorded: dict[str, Any] | None = None) -> Settings:
    """The settings of ``review``/``resume`` of ``thread_id`` by id: with the ``--out`` its run
    recorded (:func:`app.runs.recorded_out.with_recorded_out`), so that the report and the
    continue lines this command prints go where the run said; when the command ``runs`` the
    thread, that ``--out`` is checked before the run as a given one is. Another ``--out`` given
    wins; a note on stderr says it replaces the run's. ``recorded``: the thread's ``runs`` row,
    when read already (None: read here).

    Raises:
        BadInput: the recorded ``--out`` can no longer be written
            (:func:`app.cli.checks.validate_paths`).
    """
    from app.runs.recorded_out import out_record, with_recorded_out
    from app.runs.threads import recorded_run
    from app.storage import storage_of

    if recorded is None:
        recorded = recorded_run(storage_of(settings), thread_id)
    was = (recorded or {}).get("report_out")
    if was and settings.report_out and out_record(settings.report_out) != was:
        print(visible(f"note: the report goes to --out {settings.report_out}, not to {was} "
                      "where this thread's run wrote it (the --out given wins, and later "
                      "continues keep it)"), file=sys.stderr)
    adopted = with_recorded_out(settings, recorded)
    if runs and adopted is not settings:
        validate_paths(adopted)
    return adopted


def continuing_topic(settings: Settings, topic: str, as_of: str, thread_id: str | None,
                     fresh: bool) -> Settings:
    """The settings of ``research TOPIC``: those of :func:`continuing` when the thread it lands
    on (:func:`app.runs.threads.run_thread_id`) is unfinished or paused for review (its
    ``runs`` row's status), so it continues the thread as ``resume``/``review`` by id would
    (else its report went to the data dir's ``reports/`` when the run had said ``--out``,
    and an ``--out`` given at a review pause was forgotten by the ``review --approve`` after);
    else ``settings`` (a new thread, or a rerun of a finished one, writes where it is told).

    Raises:
        BadInput: as :func:`continuing`.
        app.storage.StorageError: a database is damaged or cannot be reached.
    """
    if fresh:
        return settings
    from app.runs.threads import UNFINISHED_RUNS, recorded_run, run_thread_id
    from app.storage import storage_of

    storage = storage_of(settings)
    landing = run_thread_id(topic, as_of, thread_id, False, storage)
    recorded = recorded_run(storage, landing)
    if recorded is None or recorded.get("status") not in UNFINISHED_RUNS:
        return settings
    if (recorded.get("topic"), recorded.get("as_of")) != (topic, as_of):
        return settings  # not this topic's thread: the run refuses it (no note before that)
    return continuing(settings, landing, runs=True, recorded=recorded)
