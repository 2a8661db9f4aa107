"""What the recorders of outside answers share: web search (``workers/sources/web.py``) and MCP
tool calls (``workers/mcp_tools.py``) each keep their answers in a SQLite file, so a rerun or a
resume never asks again, and let one thread at a time ask a given question.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from pathlib import Path

from workers.sources.damage import damaged, is_damage

__all__ = ["KeyedLocks", "sqlite_transaction"]

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
