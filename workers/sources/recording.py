"""What the recorders of outside answers share: web search (``workers/sources/web.py``) and MCP
tool calls (``workers/mcp_tools.py``) each keep their answers in a SQLite file, so a rerun or a
resume never asks again, and let one thread at a time ask a given question.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Collection, Hashable, Iterator
from contextlib import contextmanager
from pathlib import Path

from workers.sources.damage import DamagedFile, damaged, is_damage

__all__ = ["KeyedLocks", "foreign_tables", "refuse_foreign", "sqlite_transaction"]

_FOREIGN = re.compile(r"no such column|has no column named|does not match any PRIMARY KEY")
"""SQLite's words for a table of another layout than the record's: a well-formed file another
program (or an earlier version) wrote, which fails every question the same way (a
``web.sqlite`` with another ``searches`` table gave a raw ``OperationalError``)."""


@contextmanager
def sqlite_transaction(path: str | Path, what: str = "record") -> Iterator[sqlite3.Connection]:
    """A connection to the SQLite file ``path`` (waiting up to 30 s for another writer) inside
    one transaction: committed when the block ends, rolled back if it raises; closed after.

    Raises:
        workers.sources.damage.DamagedFile: the file is damaged, or its tables are of another
            layout (every question would fail the same way: the run stops with one line naming
            the file, called ``what``, and the way out; it holds paid answers, so it is left
            for the user to move aside).
    """
    con = sqlite3.connect(path, timeout=30)
    try:
        with con:
            yield con
    except sqlite3.DatabaseError as exc:
        if is_damage(exc) or _FOREIGN.search(str(exc)):
            raise damaged(Path(path), exc, what=what, derived=False) from None
        raise
    finally:
        con.close()


class KeyedLocks:
    """One ``threading.Lock`` per key, made on first use: ``locks(key)`` (thread-safe), so
    that two tasks asking the same question wait for one answer instead of asking twice."""

    def __init__(self) -> None:
        self._locks: dict[Hashable, threading.Lock] = {}
        self._guard = threading.Lock()

    def __call__(self, key: Hashable) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(key, threading.Lock())


def foreign_tables(con: sqlite3.Connection, ours: Collection[str]) -> list[str]:
    """The tables of ``con``'s file, sorted, when there are some and none of them is one of
    ``ours``: another program's file, which the app must never adopt (its tables added beside
    the other program's, its journal made WAL: trial 46, F1); ``[]`` otherwise (a new file,
    or the app's own, an older layout of it included)."""
    present = sorted(r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"))
    return present if present and not set(present) & set(ours) else []


def refuse_foreign(path: Path, ours: Collection[str], what: str) -> None:
    """Refuse the record ``path`` (called ``what``) when another program's tables alone are in
    it (:func:`foreign_tables`); nothing when it does not exist yet.

    Raises:
        DamagedFile: one line naming the file, its tables and the way out.
    """
    if not path.exists():
        return
    with sqlite_transaction(path, what) as con:
        found = foreign_tables(con, ours)
    if found:
        raise DamagedFile(f"the {what} {path} holds tables this app does not make "
                          f"({', '.join(found[:3])}): another program's; move it aside (mv "
                          f"{path} {path}.damaged) and run again: what it recorded is asked "
                          "again")
