"""The checkpointer: LangGraph's ``SqliteSaver`` on a file in the data dir.

``SqliteSaver`` is sync only, and LangGraph runs sync nodes in a thread pool, so the connection we
open ourselves needs ``check_same_thread=False`` (the saver serializes access with its own lock).
WAL and a busy timeout let two processes share one data dir without "database is locked".

Source: ``langgraph.checkpoint.sqlite.SqliteSaver`` (langgraph-checkpoint-sqlite).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from langgraph.checkpoint.sqlite import SqliteSaver

__all__ = ["CHECKPOINTS_DB", "checkpoint_thread_ids", "open_checkpointer"]

CHECKPOINTS_DB = "checkpoints.sqlite"


@contextmanager
def open_checkpointer(data_dir: Path | str) -> Iterator[SqliteSaver]:
    """Open the data dir's checkpoint database as a ``SqliteSaver``; closed on exit.

    Args:
        data_dir: the folder (created if missing).
    """
    path = Path(data_dir) / CHECKPOINTS_DB
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, check_same_thread=False, timeout=30.0)
    try:
        conn.execute("PRAGMA busy_timeout = 30000")
        conn.execute("PRAGMA journal_mode = WAL")
        saver = SqliteSaver(conn)
        saver.setup()
        yield saver
    finally:
        conn.close()


def checkpoint_thread_ids(data_dir: Path | str) -> list[str]:
    """The thread ids that have at least one checkpoint in the data dir (none if no database).

    Reads the ``SqliteSaver`` table directly, so it creates nothing and needs no graph.
    """
    path = Path(data_dir) / CHECKPOINTS_DB
    if not path.exists():
        return []
    with sqlite3.connect(path, timeout=30.0) as conn:
        try:
            rows = conn.execute(
                "SELECT DISTINCT thread_id FROM checkpoints WHERE checkpoint_ns = ''"
            ).fetchall()
        except sqlite3.OperationalError:  # no table yet
            return []
    return [r[0] for r in rows]
