"""How each checkpoint saver keeps only a thread's latest checkpoint (``prune``'s deleting,
:mod:`app.runs.prune`): ``PostgresSaver`` through its own ``prune(strategy="keep_latest")`` in a
transaction that counts what goes; ``SqliteSaver``, which has no ``prune``, by the same deletes
in one transaction; then SQLite's file is compacted.

Sources: ``langgraph.checkpoint.base.BaseCheckpointSaver.prune``; PostgreSQL's "Routine
Vacuuming" for what happens to deleted rows.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from app.storage import root_config

__all__ = ["compact_sqlite", "keep_latest"]


def _sqlite_keep_latest(saver: Any, thread_id: str, keep_id: str, *, dry_run: bool
                        ) -> dict[str, int]:
    """Delete every checkpoint and write of ``thread_id`` except checkpoint ``keep_id`` of the
    root namespace, in one transaction. The kept checkpoint loses its parent link, since the
    parent is gone. A ``dry_run`` only counts, in a read transaction: its ``saver`` may be a
    read-only one (a read-only data dir).

    The only SQL specific to ``SqliteSaver``'s tables (``checkpoints``, ``writes``) in the app.

    Returns:
        ``{"checkpoints": n, "writes": n, "payload_bytes": n}``: rows removed (or that would
        be) and the bytes of their serialized checkpoints, metadata and write values.
    """
    keep = "checkpoint_ns = '' AND checkpoint_id = ?"
    args = (thread_id, keep_id)
    with saver.lock:
        conn: sqlite3.Connection = saver.conn
        conn.execute("BEGIN" if dry_run else "BEGIN IMMEDIATE")
        try:
            checkpoints, cbytes = conn.execute(
                "SELECT COUNT(*), COALESCE(SUM(length(checkpoint) + length(metadata)), 0) "
                f"FROM checkpoints WHERE thread_id = ? AND NOT ({keep})", args).fetchone()
            writes, wbytes = conn.execute(
                "SELECT COUNT(*), COALESCE(SUM(length(value)), 0) "
                f"FROM writes WHERE thread_id = ? AND NOT ({keep})", args).fetchone()
            if not dry_run:
                conn.execute(f"DELETE FROM checkpoints WHERE thread_id = ? AND NOT ({keep})",
                             args)
                conn.execute(f"DELETE FROM writes WHERE thread_id = ? AND NOT ({keep})", args)
                conn.execute(f"UPDATE checkpoints SET parent_checkpoint_id = NULL "
                             f"WHERE thread_id = ? AND {keep}", args)
        except BaseException:
            conn.rollback()
            raise
        if dry_run:
            conn.rollback()
        else:
            conn.commit()
    return {"checkpoints": checkpoints, "writes": writes, "payload_bytes": cbytes + wbytes}


def compact_sqlite(saver: Any) -> None:
    """``VACUUM`` the checkpoint database and truncate its WAL, so freed pages leave the disk."""
    with saver.lock:
        saver.conn.execute("VACUUM")
        saver.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


_PG_THREAD_ROWS = """
SELECT
    (SELECT COUNT(*) FROM checkpoints WHERE thread_id = %(t)s) AS checkpoints,
    (SELECT COUNT(*) FROM checkpoint_writes WHERE thread_id = %(t)s) AS writes,
    (SELECT COALESCE(SUM(pg_column_size(checkpoint) + pg_column_size(metadata)), 0)
     FROM checkpoints WHERE thread_id = %(t)s)
    + (SELECT COALESCE(SUM(pg_column_size(blob)), 0)
       FROM checkpoint_writes WHERE thread_id = %(t)s)
    + (SELECT COALESCE(SUM(pg_column_size(blob)), 0)
       FROM checkpoint_blobs WHERE thread_id = %(t)s) AS payload_bytes
"""
"""The rows of a thread in ``PostgresSaver``'s tables, and the bytes their values take as
stored (``pg_column_size``: after TOAST compression)."""


def _postgres_keep_latest(saver: Any, thread_id: str, keep_id: str, *, dry_run: bool
                          ) -> dict[str, int]:
    """``saver.prune([thread_id], strategy="keep_latest")`` (a ``PostgresSaver``) inside one
    ``REPEATABLE READ`` transaction that counts the thread's rows before and after it, checks
    that the checkpoint kept is ``keep_id``, and commits (rolls back when ``dry_run``).

    The saver's own transaction becomes a savepoint of this one; its ``SET TRANSACTION
    ISOLATION LEVEL REPEATABLE READ`` is the level already set, which PostgreSQL accepts there.

    Returns:
        ``{"checkpoints": n, "writes": n, "payload_bytes": n}``: rows removed (or that would
        be) from ``checkpoints`` and ``checkpoint_writes``, and the stored bytes of their values
        and of the ``checkpoint_blobs`` rows removed with them.

    Raises:
        RuntimeError: the saver would keep another checkpoint than ``keep_id`` (rolled back).
    """
    import psycopg

    conn = saver.conn
    counts: dict[str, int] = {}
    with conn.transaction():
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        before = conn.execute(_PG_THREAD_ROWS, {"t": thread_id}).fetchone()
        saver.prune([thread_id], strategy="keep_latest")
        after = conn.execute(_PG_THREAD_ROWS, {"t": thread_id}).fetchone()
        kept = saver.get_tuple(root_config(thread_id))
        if kept is None or kept.config["configurable"]["checkpoint_id"] != keep_id:
            raise RuntimeError(f"prune of {thread_id} would not keep its latest checkpoint "
                               f"{keep_id}; nothing was changed")
        counts = {key: int(before[key]) - int(after[key]) for key in before}
        if dry_run:
            raise psycopg.Rollback
    return counts


def _is_postgres_saver(saver: Any) -> bool:
    from langgraph.checkpoint.postgres import PostgresSaver

    return isinstance(saver, PostgresSaver)


def keep_latest(saver: Any, thread_id: str, keep_id: str, *, dry_run: bool) -> dict[str, int]:
    """Keep only ``keep_id`` of ``thread_id``: :func:`_postgres_keep_latest` for a
    ``PostgresSaver`` (through its own ``prune``), :func:`_sqlite_keep_latest` for a
    ``SqliteSaver``.

    Raises:
        NotImplementedError: another saver (a backend this module does not know).
    """
    if _is_postgres_saver(saver):
        return _postgres_keep_latest(saver, thread_id, keep_id, dry_run=dry_run)
    if isinstance(getattr(saver, "conn", None), sqlite3.Connection):
        return _sqlite_keep_latest(saver, thread_id, keep_id, dry_run=dry_run)
    raise NotImplementedError(f"prune does not support {type(saver).__name__}")
