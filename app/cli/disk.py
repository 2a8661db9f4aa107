"""Telling a full disk, or a data dir that stopped taking writes, from other failures, so the CLI
can say "nothing was lost" (exit 1)."""

from __future__ import annotations

import errno
import shutil
import sqlite3
from pathlib import Path

from app.cli.checks import nearest_existing

NEARLY_FULL = 1 << 20
"""Free bytes under which an I/O error on the data dir's file system is put down to a full disk
(SQLite reports a failed write of its WAL index as "disk I/O error", not ``SQLITE_FULL``)."""


def disk_full(exc: BaseException | None, data_dir: Path | None) -> str | None:
    """What says the disk is full in ``exc`` or the errors it was raised from or during
    (``__cause__``/``__context__``): an ``OSError`` ENOSPC/EDQUOT, SQLite's ``SQLITE_FULL``, or
    an I/O error (SQLite's ``SQLITE_IOERR`` family, ``EIO``) while the file system of
    ``data_dir`` has less than :data:`NEARLY_FULL` bytes free. None when nothing does. A full
    disk is a failure (exit 1), never bad input, even when it surfaces as a corpus error."""
    from workers.errors import causes

    for err in causes(exc):
        if isinstance(err, OSError) and err.errno in (errno.ENOSPC, errno.EDQUOT):
            return f"{err.strerror}: {err.filename}" if err.filename else str(err.strerror)
        if isinstance(err, sqlite3.Error) and (
                getattr(err, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
                or "database or disk is full" in str(err)):
            return str(err)
        io_error = (isinstance(err, OSError) and err.errno == errno.EIO) or (
            isinstance(err, sqlite3.Error)
            and (getattr(err, "sqlite_errorcode", 0) or 0) & 0xFF == sqlite3.SQLITE_IOERR)
        if io_error and (free := free_bytes(data_dir)) is not None and free < NEARLY_FULL:
            return f"{err}; {free} bytes free"
    return None


def free_bytes(data_dir: Path | None) -> int | None:
    """Free bytes on the file system of ``data_dir`` (or its nearest existing parent); None
    when unknown."""
    if data_dir is None:
        return None
    existing = nearest_existing(data_dir)
    try:
        return shutil.disk_usage(existing).free if existing is not None else None
    except OSError:
        return None


def disk_full_line(why: str) -> str:
    """The line that says the disk is full and that nothing was lost (the CLI exits 1)."""
    # Every write is a transaction (results, checkpoints) or an atomic rename (index, report):
    # a full disk stops the run between two saved states, and the next run resumes from there.
    return (f"error: the disk is full ({why}); nothing was lost: free some space, then run the "
            "same command again to continue")


def not_writable(exc: BaseException | None, data_dir: Path | None) -> str | None:
    """What says the run's files stopped taking writes in ``exc`` or the errors it came from:
    SQLite's ``SQLITE_READONLY`` ("attempt to write a readonly database"), or an ``OSError``
    EACCES/EPERM/EROFS on a file under ``data_dir``. None when nothing does. Else a data dir
    made read-only mid-run ended in "run failed: OperationalError: attempt to write a readonly
    database", which read as a bug and named no file."""
    from workers.errors import causes

    for err in causes(exc):
        if isinstance(err, sqlite3.Error) and (
                (getattr(err, "sqlite_errorcode", 0) or 0) & 0xFF == sqlite3.SQLITE_READONLY
                or "readonly database" in str(err)):
            return f"{err}, in {data_dir}" if data_dir is not None else str(err)
        if (isinstance(err, OSError) and err.errno in (errno.EACCES, errno.EPERM, errno.EROFS)
                and err.filename and data_dir is not None
                and Path(str(err.filename)).resolve().is_relative_to(data_dir.resolve())):
            return f"{err.strerror}: {err.filename}"
    return None


def not_writable_line(why: str) -> str:
    """The line that says the data dir stopped taking writes and that nothing was lost."""
    # as for a full disk: the run stopped between two saved states
    return (f"error: the data dir stopped taking writes ({why}); nothing was lost: make it "
            "writable again, then run the same command again to continue")
