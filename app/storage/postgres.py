"""PostgreSQL: checkpoints in ``PostgresSaver``, result rows in the same database, leases.

``RESEARCH_DATABASE_URL=postgresql://user:password@host:5432/dbname`` (or ``--database-url``)
selects this backend; nothing is written to the data dir's SQLite files then (the data dir still
holds the corpus index and the reports).

Everything here works through PgBouncer in transaction mode (each transaction may run on another
server connection), so nothing relies on session state between transactions:

* Connections: psycopg 3, ``autocommit=True, prepare_threshold=None, row_factory=dict_row``.
  ``prepare_threshold=None`` means no server-side prepared statement, ever: psycopg's named
  ``_pg3_N`` statements collide on a pooled server connection
  (``DuplicatePreparedStatement``). ``PostgresSaver.from_conn_string`` hard-codes
  ``prepare_threshold=0`` (langgraph#6705), so the saver gets a connection opened here.
* Checkpoints: ``PostgresSaver`` on that connection; ``setup()`` creates and migrates its
  tables over ``RESEARCH_DATABASE_DIRECT_URL`` when set (a URL that bypasses the pooler), else
  the main URL, under the lease ``setup:checkpoints`` (``CREATE INDEX CONCURRENTLY`` cannot run
  in a transaction, so a transaction-level lock cannot cover it).
* Results: the same ``results``, ``runs`` and ``reports`` tables and the same
  ``INSERT ... ON CONFLICT (thread_id, envelope_id) DO UPDATE`` as on SQLite.
* Thread lock: a lease row with a heartbeat and a TTL (:mod:`app.storage.lease`), not a
  session advisory lock (which a transaction pooler never releases).

Our own tables (``results``, ``runs``, ``reports``, ``leases``) are created in one transaction
under a transaction-level advisory lock (``pg_advisory_xact_lock``, released at commit,
pooler-safe), because two processes creating the same table at once can fail even with
``IF NOT EXISTS``.

A server that goes away under a run (restarted, shut down, the connection dropped) is named by
:meth:`PostgresStorage.went_away`; psycopg's own warning about the pipeline it could not end on
the dead connection (``error ignored terminating <psycopg.Pipeline [BAD]>``, logged while the
real error propagates) is dropped (:class:`_LostConnectionNoise`), so the user sees one line.

A pooler error the app cannot work around (statement pooling, an unsupported startup parameter,
a prepared statement from elsewhere) is one line naming the pooler (:func:`pooler_error`).

Source: https://langchain-ai.github.io/langgraph/reference/checkpoints/#langgraph.checkpoint.postgres.PostgresSaver,
psycopg's "Prepared statements" and PgBouncer notes
(https://www.psycopg.org/psycopg3/docs/advanced/prepare.html#pgbouncer), PostgreSQL's "Advisory
Locks" (https://www.postgresql.org/docs/current/explicit-locking.html).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from app.settings.credentials import redact_url
from app.storage.base import (
    ROOT_THREADS_SQL,
    Storage,
    StorageUnreachable,
    ThreadBusy,
    TryLater,
)
from app.storage.lease import LEASE_TTL, LEASES_DDL, Lease, LeaseBusy, live_leases
from app.storage.pg_errors import (
    cannot_connect,
    lost_connection,
    pooler_error,
    quiet_lost_connections,
)
from app.storage.results import ADDED_RUN_COLUMNS, SCHEMA, ResultsStore

__all__ = ["PostgresResults", "PostgresStorage", "pooler_error", "redact_url"]

_SETUP_LOCK = 0x7265736561726368  # "research": serializes our table creation across processes
_SETUP_PATIENCE = 120.0
"""Seconds to wait for another process to finish creating the saver's tables."""
_held_leases: dict[tuple[str, str], tuple[str, Lease]] = {}
"""The thread leases this process holds, by ``(lease name, database URL)``: ``(thread_id,
lease)``; :meth:`PostgresStorage.lock_lost` asks each whether it is still held (a
``PostgresStorage`` is a description that holds nothing; several may name one database)."""

_OWN_TABLES = ("results", "runs", "reports", "leases")
def create_tables(conn: Any) -> None:
    """Create ``results``, ``runs``, ``reports`` and ``leases`` unless they all exist (with the
    ``runs`` columns added since, :data:`app.storage.results.ADDED_RUN_COLUMNS`): one
    transaction under ``pg_advisory_xact_lock`` (released at commit, so it holds through a
    pooler). Each is ``IF NOT EXISTS``: a database made before a table or column existed gets
    it, and the other tables keep their rows."""
    if all(_has_table(conn, name) for name in _OWN_TABLES) and _has_run_columns(conn):
        return
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SETUP_LOCK,))
        for statement in [*SCHEMA.format(seq="seq BIGSERIAL,").split(";"), LEASES_DDL]:
            if statement.strip():
                conn.execute(statement)
        for column in ADDED_RUN_COLUMNS:  # a database made before runs recorded it
            conn.execute(f"ALTER TABLE runs ADD COLUMN IF NOT EXISTS {column} TEXT")


def _has_run_columns(conn: Any) -> bool:
    """Whether table ``runs`` has every column added since it was first made."""
    rows = conn.execute(
        "SELECT attname FROM pg_attribute WHERE attrelid = to_regclass('runs') "
        "AND NOT attisdropped AND attname = ANY(%s)", (list(ADDED_RUN_COLUMNS),)).fetchall()
    return len(rows) == len(ADDED_RUN_COLUMNS)


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
        if not read_only:
            create_tables(conn)

    def close(self) -> None:
        """Close the connection. Nothing is lost: each write committed in its own transaction."""
        self._conn.close()

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        return list(self._conn.execute(_placeholders(sql), params).fetchall())

    def _each(self, sql: str, params: Sequence[Any] = ()) -> Iterator[dict[str, Any]]:
        yield from self._conn.execute(_placeholders(sql), params)  # dicts made as read

    def _has_table(self, name: str) -> bool:
        return _has_table(self._conn, name)

    def _write(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with self._conn.transaction(), self._conn.cursor() as cur:
            cur.executemany(_placeholders(sql), rows)


class PostgresStorage(Storage):
    """Checkpoints and results in one PostgreSQL database, directly or through a pooler.

    Args:
        url: a libpq connection URL, ``postgresql://user:password@host:port/dbname`` (a
            PgBouncer in transaction mode is fine).
        direct_url: a URL of the same database that bypasses the pooler, for the saver's
            ``setup()``; None: ``url``.
        lease_ttl: seconds a killed run's thread lease outlives it (see
            :mod:`app.storage.lease`).
    """

    def __init__(self, url: str, direct_url: str | None = None, *,
                 lease_ttl: float = LEASE_TTL) -> None:
        self.url = url
        self.direct_url = direct_url or None
        self.lease_ttl = lease_ttl
        self.label = redact_url(url)

    def _connect(self, url: str | None = None) -> Any:
        import psycopg
        from psycopg.rows import dict_row

        quiet_lost_connections()
        url = url or self.url
        try:
            return psycopg.connect(url, autocommit=True, prepare_threshold=None,
                                   row_factory=dict_row, connect_timeout=10)
        except psycopg.OperationalError as exc:
            label = redact_url(url)
            if error := pooler_error(exc, label):
                raise error from None
            raise cannot_connect(label, " ".join(str(exc).split())) from None

    @contextmanager
    def _pooler_errors(self) -> Iterator[None]:
        """Turn a pooler's psycopg error raised in the block into :func:`pooler_error`'s."""
        import psycopg

        try:
            yield
        except psycopg.Error as exc:
            if error := pooler_error(exc, self.label):
                raise error from exc
            raise

    def _setup_saver(self) -> None:
        """Run ``PostgresSaver.setup()`` over the direct URL (else the main one) under the
        ``setup:checkpoints`` lease, unless its migrations have all run."""
        from langgraph.checkpoint.postgres import PostgresSaver

        with self._connect(self.direct_url) as conn:
            if _migrated(conn, len(PostgresSaver.MIGRATIONS)):
                return
            create_tables(conn)
            try:
                with Lease(lambda: self._connect(self.direct_url), "setup:checkpoints",
                           ttl=self.lease_ttl, wait=_SETUP_PATIENCE):
                    PostgresSaver(conn).setup()
            except LeaseBusy:  # try later (exit 75), as a busy thread
                raise TryLater("another process has been creating the PostgreSQL tables "
                               f"for {_SETUP_PATIENCE:.0f} s; is it stuck?") from None

    @contextmanager
    def checkpointer(self, *, read_only: bool = False) -> Iterator[Any]:
        """A ``PostgresSaver`` on a connection of its own (no server-side prepared statements),
        its migrations run once unless ``read_only`` (over ``direct_url`` when given);
        ``read_only`` yields None while the ``checkpoints`` table does not exist.
        Unreachable, or a pooler problem: :class:`StorageError`."""
        from langgraph.checkpoint.postgres import PostgresSaver

        with self._pooler_errors(), self._connect() as conn:
            if read_only:
                yield PostgresSaver(conn) if _has_table(conn, "checkpoints") else None
                return
            if not _migrated(conn, len(PostgresSaver.MIGRATIONS)):
                self._setup_saver()
            yield PostgresSaver(conn)

    @contextmanager
    def results(self, *, read_only: bool = False) -> Iterator[ResultsStore | None]:
        """A :class:`PostgresResults` on a connection of its own (tables created unless
        ``read_only``, which yields None while the ``runs`` table does not exist)."""
        with self._pooler_errors():
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
    def thread_lock(self, thread_id: str, *, read_only: bool = False, holder: str = "run"
                    ) -> Iterator[None]:
        """The lease ``thread:ID`` (:class:`app.storage.lease.Lease`), renewed while the run
        goes and deleted at its end; a killed holder's lease is taken over at once from the
        same machine and PID namespace, elsewhere after ``lease_ttl`` seconds. ``read_only``
        changes nothing: the lease is a row, and a server is never read-only the way a data
        dir's folder is.

        Raises:
            ThreadBusy: another live process holds it; the message says when it expires.
        """
        with self._pooler_errors():
            with self._connect() as conn:
                create_tables(conn)
            try:
                lease = Lease(self._connect, f"thread:{thread_id}", ttl=self.lease_ttl,
                              role=holder)
                lease.__enter__()
            except LeaseBusy as busy:
                raise ThreadBusy.of(thread_id, retry_in=busy.retry_in, holder=busy.role) from None
        _held_leases[lease.name, self.url] = (thread_id, lease)
        try:
            yield
        finally:
            _held_leases.pop((lease.name, self.url), None)
            lease.__exit__(None, None, None)

    def lock_lost(self) -> str | None:
        """One line when a thread lease this process holds on this database is no longer its
        own (:meth:`app.storage.lease.Lease.still_held`: it expired while the process was
        suspended, e.g. Ctrl-Z or a paused VM, and another process took it), else None. No
        statement while the heartbeat renews on time."""
        for (_, url), (thread_id, lease) in list(_held_leases.items()):
            if url == self.url and not lease.still_held():
                return (f"the lease on thread {thread_id!r} expired (no renewal reached the "
                        f"database for over {lease.ttl:.0f} s: the process was suspended, or "
                        "the database out of reach) and another process took the thread: this "
                        "run stopped, so that no task runs twice; the other process goes on "
                        "with it (threads shows it)")
        return None

    def went_away(self, exc: BaseException) -> str | None:
        """``"the PostgreSQL database at URL went away (CAUSE)"`` when ``exc`` is a lost connection
        (:func:`lost_connection`) or, raised during a run, a new connection that could not be
        made (:class:`StorageUnreachable`: the server stopped, a pooler's server login
        failing; the run's line said only "cannot connect", not what of the run was written,
        trial 66, F2), else None."""
        if isinstance(exc, StorageUnreachable):
            cause = str(exc).removeprefix(f"cannot connect to PostgreSQL at {self.label}: ")
            return f"the PostgreSQL database at {self.label} went away (cannot connect: {cause})"
        if (cause := lost_connection(exc)) is None:
            return None
        return f"the PostgreSQL database at {self.label} went away ({cause})"

    def running_threads(self, thread_ids: Iterable[str]) -> set[str] | None:
        """The threads whose lease ``thread:ID`` is held now (:func:`app.storage.lease.
        live_leases`: one ``SELECT``, no lease taken)."""
        names = [f"thread:{t}" for t in thread_ids]
        with self._pooler_errors(), self._connect() as conn:
            if not names or not _has_table(conn, "leases"):
                return set()
            return {name.removeprefix("thread:") for name in live_leases(conn, names)}

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
