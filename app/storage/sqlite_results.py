"""The results database in one SQLite file (``<data dir>/results.sqlite``): the SQL of
:class:`app.storage.results.ResultsStore` on an app connection
(:func:`app.storage.sqlite_files.connect`: WAL, a busy timeout), written in ``BEGIN IMMEDIATE``
transactions.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from app.storage.results import ADDED_RUN_COLUMNS, SCHEMA, ResultsStore
from app.storage.sqlite_files import connect

__all__ = ["RESULTS_DB", "SqliteResults", "has_table"]

RESULTS_DB = "results.sqlite"


class SqliteResults(ResultsStore):
    """The results database in one SQLite file.

    Args:
        path: the database file; its folder is created (unless ``read_only``, or not
            ``make_folder``: see :func:`app.storage.sqlite_files.connect`).
        read_only: open with ``mode=ro``; the file must exist.
    """

    order_column = "rowid"

    def __init__(self, path: Path | str, *, read_only: bool = False,
                 make_folder: bool = True) -> None:
        self.path = Path(path)
        self._conn = connect(self.path, read_only=read_only, make_folder=make_folder)
        self._conn.isolation_level = None  # explicit BEGIN IMMEDIATE for writes
        self._conn.row_factory = sqlite3.Row
        if read_only:
            return
        try:
            self._conn.executescript(SCHEMA.format(seq=""))
            columns = {row[1] for row in self._conn.execute("PRAGMA table_info(runs)")}
            for column in ADDED_RUN_COLUMNS:  # a database written before runs recorded it
                if column not in columns:
                    self._conn.execute(f"ALTER TABLE runs ADD COLUMN {column} TEXT")
        except BaseException:
            self._conn.close()
            raise

    @classmethod
    def in_dir(cls, data_dir: Path | str) -> SqliteResults:
        """Open (and create) the results database of a data dir."""
        return cls(Path(data_dir) / RESULTS_DB)

    def close(self) -> None:
        """Close the connection. Nothing is lost: each write committed in its own transaction."""
        self._conn.close()

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        return [dict(row) for row in self._conn.execute(sql, params)]

    def _has_table(self, name: str) -> bool:
        return has_table(self._conn, name)

    def _write(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            self._conn.executemany(sql, rows)
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")


def has_table(conn: sqlite3.Connection, name: str) -> bool:
    """Whether the database of ``conn`` has a table ``name``."""
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                        (name,)).fetchone() is not None
