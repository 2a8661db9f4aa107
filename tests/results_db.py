"""What a run left in its results database, read directly (``sqlite3`` or ``psycopg``), never
through the app's own storage code, so an assertion on rows does not depend on the code it
checks. The one way the tests read result rows.

Where a run keeps its data is a :class:`Place`: a data dir, plus a PostgreSQL URL for the
PostgreSQL backend (``Place.args`` are the CLI flags that select it); a plain ``Path`` means the
SQLite files of that data dir.

* :func:`db_rows`: the ``results`` rows (of one thread, or all) in insertion order, as dicts
  (``structured`` as stored: a JSON string); ``[]`` when there is no database or table yet.
* :func:`db_runs` / :func:`db_run`: the ``runs`` rows (one per thread).
* :func:`logical_duplicates`: rows sharing a logical task (must be empty).
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RESULTS_DB = "results.sqlite"


@dataclass(frozen=True)
class Place:
    """A data dir, and the PostgreSQL database of the run when ``database_url`` is set."""

    data_dir: Path
    database_url: str | None = None

    @property
    def args(self) -> list[str]:
        """The CLI flags that point a run here."""
        url = ["--database-url", self.database_url] if self.database_url else []
        return ["--data-dir", str(self.data_dir), *url]


def as_place(where: Place | Path) -> Place:
    return where if isinstance(where, Place) else Place(Path(where))


def pg_query(url: str, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
    """Rows of ``sql`` as dicts; ``[]`` when the table does not exist yet."""
    import psycopg
    from psycopg.rows import dict_row

    with psycopg.connect(url, row_factory=dict_row) as conn:
        try:
            return list(conn.execute(sql, params).fetchall())
        except psycopg.errors.UndefinedTable:
            return []


def _select(where: Place | Path, table: str, order: str,
            thread_id: str | None) -> list[dict[str, Any]]:
    """``SELECT * FROM table`` (of one thread, or all), as dicts; ``[]`` without the table."""
    place = as_place(where)
    if place.database_url:
        where_sql, params = ("WHERE thread_id = %s", (thread_id,)) if thread_id else ("", ())
        return pg_query(place.database_url, f"SELECT * FROM {table} {where_sql} ORDER BY {order}",
                        params)
    path = place.data_dir / RESULTS_DB
    if not path.exists():
        return []
    conn = sqlite3.connect(path, timeout=30.0)
    conn.row_factory = sqlite3.Row
    try:
        where_sql, params = ("WHERE thread_id = ?", (thread_id,)) if thread_id else ("", ())
        return [dict(r) for r in conn.execute(
            f"SELECT * FROM {table} {where_sql} ORDER BY rowid", params).fetchall()]
    except sqlite3.OperationalError:  # no table yet
        return []
    finally:
        conn.close()


def db_rows(where: Place | Path, thread_id: str | None = None) -> list[dict[str, Any]]:
    """The results rows (of one thread, or all) in insertion order, as plain dicts."""
    rows = _select(where, "results", "seq", thread_id)
    return [{k: v for k, v in r.items() if k != "seq"} for r in rows]


def db_runs(where: Place | Path, thread_id: str | None = None) -> list[dict[str, Any]]:
    """The ``runs`` rows (of one thread, or all; one row per thread), as plain dicts."""
    return _select(where, "runs", "started_at, thread_id", thread_id)


def db_run(where: Place | Path, thread_id: str) -> dict[str, Any] | None:
    """The ``runs`` row of ``thread_id``, or None."""
    runs = db_runs(where, thread_id)
    return runs[0] if runs else None


def logical_duplicates(rows: Sequence[Mapping[str, Any]]) -> dict[tuple, int]:
    """Rows sharing a logical task (worker, task_key, as_of): must be empty."""
    counts = Counter((r["worker"], r["task_key"], r["as_of"]) for r in rows)
    return {k: n for k, n in counts.items() if n > 1}
