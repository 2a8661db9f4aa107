"""The results database in one SQLite file (``<data dir>/results.sqlite``): the SQL of
:class:`app.storage.results.ResultsStore` on an app connection
(:func:`app.storage.sqlite_files.connect`: WAL, a busy timeout), written in ``BEGIN IMMEDIATE``
transactions.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from app.storage.results import (
    ADDED_RUN_COLUMNS,
    RESULT_COLUMNS,
    RUN_COLUMNS,
    SCHEMA,
    ResultsStore,
)
from app.storage.sqlite_files import connect
from workers.sources.recording import foreign_tables

__all__ = ["RESULTS_DB", "ForeignSchema", "SqliteResults", "has_table", "shape_problem"]

RESULTS_DB = "results.sqlite"


class ForeignSchema(sqlite3.DatabaseError):
    """A well-formed SQLite file whose tables are not the ones this app reads and writes (an
    earlier layout, another program's): the message says which table lacks what."""


_TABLES = {
    "results": (RESULT_COLUMNS, ("thread_id", "envelope_id")),
    "runs": (tuple(c for c in RUN_COLUMNS if c not in ADDED_RUN_COLUMNS), ("thread_id",)),
    "reports": (("thread_id", "report", "written_at"), ("thread_id",)),
}
"""Each table: the columns every layout of it has, and its primary key (the upserts' conflict
target)."""


def shape_problem(conn: sqlite3.Connection,
                  tables: dict[str, tuple[Sequence[str], Sequence[str]]] | None = None
                  ) -> str | None:
    """What makes the tables of ``conn`` not the layout this app reads and writes (``tables``:
    name -> columns and primary key; default the results database's), in words, or None. A
    table the file lacks passes (it is created, or read as empty). An earlier layout's results
    (keyed by ``envelope_id`` alone) or another program's ``runs`` ran every task and then failed
    in ``persist`` with a raw ``OperationalError`` naming no file; ``threads`` failed alike. A
    file whose tables are all another program's is refused too: it was adopted, our tables
    added, its journal made WAL for good and ``prune`` ran VACUUM on it (trial 46, F1)."""
    tables = tables or _TABLES
    if present := foreign_tables(conn, tables):  # another program's file: never adopted
        shown = ", ".join(present[:3]) + (" ..." if len(present) > 3 else "")
        return f"holds tables this app does not make ({shown}) and none of its own"
    for table, (needed, key) in tables.items():
        info = {row[1]: row[5] for row in conn.execute(f'PRAGMA table_info("{table}")')}
        if not info:
            continue
        if missing := [c for c in needed if c not in info]:
            return (f"has a {table} table of another layout (no column "
                    f"{', '.join(repr(c) for c in missing[:3])})")
        if [c for c, n in sorted(info.items(), key=lambda kv: kv[1]) if n] != list(key):
            return (f"has a {table} table of another layout (not keyed by "
                    f"{', '.join(key)})")
    return None


class SqliteResults(ResultsStore):
    """The results database in one SQLite file.

    Args:
        path: the database file; its folder is created (unless ``read_only``, or not
            ``make_folder``: see :func:`app.storage.sqlite_files.connect`).
        read_only: open with ``mode=ro``; the file must exist.

    Raises:
        ForeignSchema: the file's tables are of another layout (:func:`shape_problem`).
    """

    order_column = "rowid"

    def __init__(self, path: Path | str, *, read_only: bool = False,
                 make_folder: bool = True) -> None:
        self.path = Path(path)
        self._conn = connect(self.path, read_only=read_only, make_folder=make_folder)
        self._conn.isolation_level = None  # explicit BEGIN IMMEDIATE for writes
        self._conn.row_factory = sqlite3.Row
        try:
            if why := shape_problem(self._conn):
                raise ForeignSchema(why)
            if read_only:
                return
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

    def _each(self, sql: str, params: Sequence[Any] = ()) -> Iterator[dict[str, Any]]:
        for row in self._conn.execute(sql, params):  # stepped as read, not fetched whole
            yield dict(row)

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
