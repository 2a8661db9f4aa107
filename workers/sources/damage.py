"""A damaged SQLite file of the data dir that the workers read (the corpus index, the web
search and MCP records): told from other SQLite errors, and turned into one line that names the
file and the way out.

Every task reading such a file fails the same way, so a damaged file stops the run, like a
fatal model error (:func:`workers.errors.is_fatal`), instead of failing each task (which a
second round sends again, and whose error rows then replace a finished thread's good rows:
found by a new-user trial, garbage written inside the corpus index).
"""

from __future__ import annotations

import sqlite3
from contextlib import suppress
from pathlib import Path

from workers.sources.checked import forget
from workers.sources.text import safe_name

__all__ = ["DamagedFile", "damaged", "is_damage"]

_DAMAGE_CODES = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


class DamagedFile(Exception):
    """A SQLite file of the data dir is damaged (SQLite: "database disk image is malformed",
    "file is not a database"): the run stops (``stops_run``: :func:`workers.errors.is_fatal`
    says so, as of a bad key; this package imports only the standard library), the message is
    one line naming the file and the way out."""

    stops_run = True


def is_damage(exc: BaseException) -> bool:
    """True when ``exc`` is SQLite saying a file is damaged (``SQLITE_CORRUPT``,
    ``SQLITE_NOTADB``), not busy, locked, missing or full.

    Example:
        >>> is_damage(sqlite3.OperationalError("database is locked"))
        False
    """
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(exc, sqlite3.DatabaseError) and code is not None and (
        code & 0xFF) in _DAMAGE_CODES


def damaged(path: Path, exc: BaseException, *, what: str, derived: bool) -> DamagedFile:
    """The error for the damaged file ``path``. A ``derived`` file (the corpus index, made from
    the corpus) is removed, so the same command again rebuilds it; another (a record of paid
    answers) is left for the user to move aside.

    Args:
        path: the file.
        exc: SQLite's error (:func:`is_damage`).
        what: what the file is, e.g. ``"corpus index"``.
        derived: whether the app can make it again from its sources alone.
    """
    reason, shown = " ".join(str(exc).split()), safe_name(str(path))
    if derived:
        with suppress(OSError):
            path.unlink()
        forget(path)  # its whole-file check's record goes with it (trial 50, F5)
        if not path.exists():
            return DamagedFile(f"the {what} {shown} is damaged ({reason}); it was removed: the "
                               "same command again rebuilds it")
    return DamagedFile(f"the {what} {shown} is damaged ({reason}); move it aside (mv {shown} "
                       f"{shown}.damaged) and run the same command again")
