"""The settings of a command that continues a thread by id (``review THREAD_ID``, ``resume
THREAD_ID``): the thread's run recorded its ``--out`` (:mod:`app.runs.recorded_out`), and the
command writes its report there and prints it in its continue lines."""

from __future__ import annotations

import sys

from app.cli.checks import validate_paths
from app.settings.config import Settings

__all__ = ["continuing"]


def continuing(settings: Settings, thread_id: str, *, runs: bool) -> Settings:
    """The settings of ``review``/``resume`` of ``thread_id`` by id: with the ``--out`` its run
    recorded (:func:`app.runs.recorded_out.with_recorded_out`), so that the report and the
    continue lines this command prints go where the run said; when the command ``runs`` the
    thread, that ``--out`` is checked before the run as a given one is. Another ``--out`` given
    wins; a note on stderr says it replaces the run's.

    Raises:
        BadInput: the recorded ``--out`` can no longer be written
            (:func:`app.cli.checks.validate_paths`).
    """
    from app.runs.recorded_out import out_record, with_recorded_out
    from app.runs.threads import recorded_run
    from app.storage import storage_of

    recorded = recorded_run(storage_of(settings), thread_id)
    was = (recorded or {}).get("report_out")
    if was and settings.report_out and out_record(settings.report_out) != was:
        print(f"note: the report goes to --out {settings.report_out}, not to {was} where "
              "this thread's run wrote it (the --out given wins, and later continues keep it)",
              file=sys.stderr)
    adopted = with_recorded_out(settings, recorded)
    if runs and adopted is not settings:
        validate_paths(adopted)
    return adopted
