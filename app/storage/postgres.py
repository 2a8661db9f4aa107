"""PostgreSQL: checkpoints in ``PostgresSaver``, result rows in the same database, advisory locks.

``RESEARCH_DATABASE_URL=postgresql://user:password@host:5432/dbname`` (or ``--database-url``)
selects this backend; nothing is written to the data dir's SQLite files then (the data dir still
holds the corpus index and the reports).

* Checkpoints: ``langgraph.checkpoint.postgres.PostgresSaver`` on one psycopg 3 connection
  (``autocommit=True, prepare_threshold=0, row_factory=dict_row``, as its ``from_conn_string``
  opens it); ``setup()`` creates and migrates its tables.
* Results: the same ``results`` and ``runs`` tables and the same
  ``INSERT ... ON CONFLICT (thread_id, envelope_id) DO UPDATE`` as on SQLite.
* Thread lock: a session-level advisory lock (``pg_try_advisory_lock``) on a connection of its
  own, held for the run: the server releases it when the session ends, so a SIGKILLed process
  never leaves a stale lock.

Table creation (ours and the saver's migrations) runs under an advisory lock, because two
processes creating the same table at once can fail on PostgreSQL even with ``IF NOT EXISTS``.
The lock is taken by polling ``pg_try_advisory_lock``, never by waiting in a statement: the
saver's migrations run ``CREATE INDEX CONCURRENTLY``, which waits for every transaction older
than itself, so a process blocked in ``pg_advisory_lock`` would deadlock with the holder.

Source: https://langchain-ai.github.io/langgraph/reference/checkpoints/#langgraph.checkpoint.postgres.PostgresSaver
and PostgreSQL's "Advisory Locks" (https://www.postgresql.org/docs/current/explicit-locking.html).
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from app.storage.base import ROOT_THREADS_SQL, Storage, StorageError, ThreadBusy, TryLater
from app.storage.results import SCHEMA, ResultsStore

__all__ = ["PostgresResults", "PostgresStorage", "redact_url"]

_SETUP_LOCK = 0x7265736561726368  # "research": serializes schema creation across processes
_SETUP_PATIENCE = 120.0
"""Seconds to wait for another process to finish creating the tables."""


def redact_url(url: str) -> str:
    """``url`` with its password replaced by ``***`` (safe to print)."""
    return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", url)


def _advisory_key(thread_id: str) -> int:
    """A signed 64-bit key for ``pg_try_advisory_lock`` from a thread id."""
    digest = hashlib.sha256(f"research-thread:{thread_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


@contextmanager
def _setup_lock(conn: Any) -> Iterator[None]:
    """Hold the schema-creation lock (session level) on an autocommit connection, polling for it
    so that no statement ever waits on it (see the module docstring)."""
    deadline = time.monotonic() + _SETUP_PATIENCE
    while not conn.execute("SELECT pg_try_advisory_lock(%s) AS ok", (_SETUP_LOCK,)
                           ).fetchone()["ok"]:
        if time.monotonic() > deadline:
            raise TryLater("another process has been creating the PostgreSQL tables for "
                               f"{_SETUP_PATIENCE:.0f} s; is it stuck?")
        time.sleep(0.05)
    try:
        yield
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s)", (_SETUP_LOCK,))


def _placeholders(sql: str) -> str:
    """SQLite-style ``?`` placeholders to psycopg's ``%s`` (our SQL has no literal ``?``/``%``)."""
    return sql.replace("%", "%%").replace("?", "%s")


class PostgresResults(ResultsStore):
    """The results database in PostgreSQL.

    Args:
        conn: a psycopg 3 connection in autocommit mode with ``dict_row`` rows; closed by
            :meth:`close`.
        read_only: do not create the tables.
    """

    order_column = "seq"

    def __init__(self, conn: Any, *, read_only: bool = False) -> None:
        self._conn = conn
        if read_only or (_has_table(conn, "results") and _has_table(conn, "runs")):
            return
        with _setup_lock(conn):
            for statement in SCHEMA.format(seq="seq BIGSERIAL,").split(";"):
                if statement.strip():
                    conn.execute(statement)

    def close(self) -> None:
        """Close the connection. Nothing is lost: each write committed in its own transaction."""
        self._conn.close()

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        return list(self._conn.execute(_placeholders(sql), params).fetchall())

    def _write(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self._conn.transaction(), self._conn.cursor() as cur:
            cur.executemany(_placeholders(sql), rows)


class PostgresStorage(Storage):
    """Checkpoints and results in one PostgreSQL database.

    Args:
        url: a libpq connection URL, ``postgresql://user:password@host:port/dbname``.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.label = redact_url(url)

    def _connect(self) -> Any:
        import psycopg
        from psycopg.rows import dict_row

        try:
            return psycopg.connect(self.url, autocommit=True, prepare_threshold=0,
                                   row_factory=dict_row, connect_timeout=10)
        except psycopg.OperationalError as exc:
            reason = " ".join(str(exc).split())
            raise StorageError(f"cannot connect to PostgreSQL at {self.label}: {reason}"
                               ) from None

    @contextmanager
    def checkpointer(self, *, read_only: bool = False) -> Iterator[Any]:
        """A ``PostgresSaver`` on a connection of its own, its migrations run once (under the
        setup lock) unless ``read_only``; ``read_only`` yields None while the ``checkpoints``
        table does not exist. Unreachable: :class:`StorageError`."""
        from langgraph.checkpoint.postgres import PostgresSaver

        with self._connect() as conn:
            saver = PostgresSaver(conn)
            if read_only:
                yield saver if _has_table(conn, "checkpoints") else None
                return
            if not _migrated(conn, len(saver.MIGRATIONS)):
                with _setup_lock(conn):
                    saver.setup()
            yield saver

    @contextmanager
    def results(self, *, read_only: bool = False) -> Iterator[ResultsStore | None]:
        """A :class:`PostgresResults` on a connection of its own (tables created unless
        ``read_only``, which yields None while the ``runs`` table does not exist)."""
        conn = self._connect()
        try:
            if read_only and not _has_table(conn, "runs"):
                conn.close()
                yield None
                return
            store = PostgresResults(conn, read_only=read_only)
        except BaseException:
            conn.close()
            raise
        with store:
            yield store

    @contextmanager
    def thread_lock(self, thread_id: str) -> Iterator[None]:
        """A session advisory lock (``pg_try_advisory_lock``) on a connection held for the run:
        the server releases it when the session ends, SIGKILL included."""
        key = _advisory_key(thread_id)
        with self._connect() as conn:
            if not conn.execute("SELECT pg_try_advisory_lock(%s) AS ok", (key,)).fetchone()["ok"]:
                raise ThreadBusy.of(thread_id)
            try:
                yield
            finally:
                if not conn.closed:
                    conn.execute("SELECT pg_advisory_unlock(%s)", (key,))

    def thread_ids(self, saver: Any) -> list[str]:
        """:data:`~app.storage.base.ROOT_THREADS_SQL` on the saver's connection."""
        if saver is None:
            return []
        rows = saver.conn.execute(ROOT_THREADS_SQL).fetchall()
        return [row["thread_id"] for row in rows]

    def checkpoint_bytes(self, saver: Any = None) -> int:
        """``pg_total_relation_size`` of the saver's three tables (``checkpoints``,
        ``checkpoint_blobs``, ``checkpoint_writes``: rows, TOAST and indexes) on a connection of
        its own; ``saver`` is not needed (the server holds no unflushed data). 0 without the
        tables."""
        with self._connect() as conn:
            if not _has_table(conn, "checkpoints"):
                return 0
            row = conn.execute(
                "SELECT pg_total_relation_size('checkpoints') + "
                "pg_total_relation_size('checkpoint_blobs') + "
                "pg_total_relation_size('checkpoint_writes') AS n"
            ).fetchone()
        return int(row["n"])


def _migrated(conn: Any, migrations: int) -> bool:
    """Whether the saver's migrations have all run (then ``setup()`` has nothing to do)."""
    if not _has_table(conn, "checkpoint_migrations"):
        return False
    row = conn.execute("SELECT MAX(v) AS v FROM checkpoint_migrations").fetchone()
    return row["v"] is not None and row["v"] >= migrations - 1


def _has_table(conn: Any, name: str) -> bool:
    return conn.execute("SELECT to_regclass(%s) IS NOT NULL AS present",
                        (name,)).fetchone()["present"]
