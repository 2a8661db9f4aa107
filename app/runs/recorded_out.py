"""The run's ``--out``, as a thread's ``runs`` row records it (column ``report_out``) and as a
command that continues the thread by id (``review THREAD_ID``, ``resume THREAD_ID``) takes it
back: its report goes where the run said it would, and its printed continue lines carry the
flag. (Else ``research --review --out DIR/`` paused, then ``review T --approve`` wrote the
report to the data dir's ``reports/`` and advised commands without ``--out``.) Pure functions;
the records are written by :func:`app.runs.run.run_research`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.settings.config import Settings

__all__ = ["out_record", "with_recorded_out"]


def out_record(out: str | None) -> str | None:
    """``--out`` as the ``runs`` row records it: absolute (a later command may run from another
    folder), a trailing ``/`` kept (it says "a folder", created if missing); None for none.

    Example:
        >>> out_record("/r/mine.md"), out_record("/r/dir/"), out_record(None)
        ('/r/mine.md', '/r/dir/', None)
    """
    if not out:
        return None
    folder = out.endswith(("/", "\\"))
    return str(Path(out).expanduser().resolve()) + ("/" if folder else "")


def with_recorded_out(settings: Settings, recorded: dict[str, Any] | None) -> Settings:
    """``settings`` of a command that continues a thread by id: with the ``--out`` its run
    recorded (``recorded``: the thread's ``runs`` row, or None) when the command names none. An
    ``--out`` the command names wins, and is recorded for the runs after it.

    Example:
        >>> with_recorded_out(Settings(), {"report_out": "/r/dir/"}).report_out
        '/r/dir/'
        >>> with_recorded_out(Settings(report_out="x.md"), {"report_out": "/r/dir/"}).report_out
        'x.md'
    """
    was = (recorded or {}).get("report_out")
    if was and not settings.report_out:
        return settings.with_overrides(report_out=was)
    return settings
