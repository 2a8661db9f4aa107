"""The results database: one row per ``envelope_id``, written by upsert.

Once ``persist`` has run, this database (not graph state) is the source of truth for envelope
payloads. Every write is ``INSERT ... ON CONFLICT(thread_id, envelope_id) DO UPDATE`` inside one
transaction,
so writing the same envelope again (a retried, resumed or re-dispatched task, or ``persist`` run a
second time after a crash between its commit and its checkpoint) updates the row in place.
``write_count`` records how many times persist wrote a row, so that story can be inspected.

SQLite in WAL mode with a busy timeout lets several processes (two runs on one data dir) write
without "database is locked" failures.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["ResultsStore", "RESULTS_DB"]

RESULTS_DB = "results.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    envelope_id      TEXT NOT NULL,
    thread_id        TEXT NOT NULL,
    topic            TEXT NOT NULL,
    worker           TEXT NOT NULL,
    task_key         TEXT NOT NULL,
    as_of            TEXT NOT NULL,
    status           TEXT NOT NULL,
    error            TEXT,
    structured       TEXT,
    round            INTEGER NOT NULL DEFAULT 1,
    attempts         INTEGER NOT NULL DEFAULT 1,
    tokens           INTEGER NOT NULL DEFAULT 0,
    task_id          TEXT,
    write_count      INTEGER NOT NULL DEFAULT 1,
    first_written_at TEXT NOT NULL,
    last_written_at  TEXT NOT NULL,
    -- One row per envelope per thread: the envelope id says which task (worker, sub-question,
    -- as_of); the thread says which run, so two threads (another topic that shares a
    -- sub-question, another corpus, --fresh) never write over each other's results.
    PRIMARY KEY (thread_id, envelope_id)
);
CREATE TABLE IF NOT EXISTS runs (
    thread_id   TEXT PRIMARY KEY,
    topic       TEXT NOT NULL,
    as_of       TEXT NOT NULL,
    model       TEXT,
    status      TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    finished_at TEXT,
    tokens      INTEGER NOT NULL DEFAULT 0,
    report_path TEXT,
    summary     TEXT,
    corpus      TEXT
);
"""

_UPSERT = """
INSERT INTO results (envelope_id, thread_id, topic, worker, task_key, as_of, status, error,
                     structured, round, attempts, tokens, task_id, write_count,
                     first_written_at, last_written_at)
VALUES (:envelope_id, :thread_id, :topic, :worker, :task_key, :as_of, :status, :error,
        :structured, :round, :attempts, :tokens, :task_id, 1, :now, :now)
ON CONFLICT(thread_id, envelope_id) DO UPDATE SET
    topic = excluded.topic,
    status = excluded.status,
    error = excluded.error,
    structured = excluded.structured,
    round = excluded.round,
    attempts = excluded.attempts,
    tokens = excluded.tokens,
    task_id = excluded.task_id,
    write_count = results.write_count + 1,
    last_written_at = excluded.last_written_at
"""


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="microseconds")


class ResultsStore:
    """The results database in ``data_dir / "results.sqlite"``.

    One connection per instance; open one per thread or process. Safe across processes (WAL,
    30 s busy timeout, ``BEGIN IMMEDIATE`` for writes).

    Args:
        path: the database file; its folder is created.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(
            self.path, timeout=30.0, isolation_level=None, check_same_thread=False
        )
        self._conn.row_factory = sqlite3.Row
        self._conn.execute("PRAGMA busy_timeout = 30000")
        self._conn.execute("PRAGMA journal_mode = WAL")
        self._conn.execute("PRAGMA synchronous = NORMAL")
        self._conn.executescript(_SCHEMA)
        columns = {row[1] for row in self._conn.execute("PRAGMA table_info(runs)")}
        if "corpus" not in columns:  # a database written before runs recorded their corpus
            self._conn.execute("ALTER TABLE runs ADD COLUMN corpus TEXT")

    @classmethod
    def in_dir(cls, data_dir: Path | str) -> ResultsStore:
        """Open the store of a data dir."""
        return cls(Path(data_dir) / RESULTS_DB)

    def close(self) -> None:
        """Close the connection."""
        self._conn.close()

    def __enter__(self) -> ResultsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def upsert(self, envelopes: Sequence[dict[str, Any]], *, thread_id: str, topic: str) -> int:
        """Write envelopes in one transaction: insert new ids, update existing ones in place.

        Args:
            envelopes: envelope dicts (``structured`` is stored as JSON).
            thread_id: the run's thread.
            topic: the run's topic.

        Returns:
            The number of envelopes written.

        Raises:
            sqlite3.Error: the transaction is rolled back; nothing is half-written.
        """
        now = _now()
        rows = [
            {
                "envelope_id": e["envelope_id"],
                "thread_id": thread_id,
                "topic": topic,
                "worker": e["worker"],
                "task_key": e.get("task_key", ""),
                "as_of": e["as_of"],
                "status": e.get("status", "ok"),
                "error": e.get("error"),
                "structured": (
                    json.dumps(e["structured"], ensure_ascii=False)
                    if e.get("structured") is not None
                    else None
                ),
                "round": e.get("round", 1),
                "attempts": e.get("attempts", 1),
                "tokens": e.get("tokens", 0),
                "task_id": e.get("task_id"),
                "now": now,
            }
            for e in envelopes
        ]
        if not rows:
            return 0
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            self._conn.executemany(_UPSERT, rows)
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")
        return len(rows)

    def rows(self, envelope_ids: Iterable[str] | None = None, *, thread_id: str | None = None
             ) -> list[dict[str, Any]]:
        """Read rows (``structured`` decoded), by envelope id, by thread, or all.

        Args:
            envelope_ids: only these ids (order of the result follows the table, not the input).
            thread_id: only rows of this thread.
        """
        query, params = "SELECT * FROM results", []
        clauses = []
        if envelope_ids is not None:
            ids = list(envelope_ids)
            if not ids:
                return []
            clauses.append(f"envelope_id IN ({','.join('?' * len(ids))})")
            params.extend(ids)
        if thread_id is not None:
            clauses.append("thread_id = ?")
            params.append(thread_id)
        if clauses:
            query += " WHERE " + " AND ".join(clauses)
        query += " ORDER BY rowid"
        out = []
        for row in self._conn.execute(query, params):
            item = dict(row)
            item["structured"] = json.loads(item["structured"]) if item["structured"] else None
            out.append(item)
        return out

    def count(self, *, thread_id: str | None = None) -> int:
        """Number of rows (of one thread, or all)."""
        if thread_id is None:
            return self._conn.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        return self._conn.execute(
            "SELECT COUNT(*) FROM results WHERE thread_id = ?", (thread_id,)
        ).fetchone()[0]

    def duplicate_count(self) -> int:
        """Rows of one thread sharing a logical task (worker, task_key, as_of) beyond the first:
        must be 0."""
        return self._conn.execute(
            "SELECT COALESCE(SUM(n - 1), 0) FROM (SELECT COUNT(*) AS n FROM results "
            "GROUP BY thread_id, worker, task_key, as_of)"
        ).fetchone()[0]

    def start_run(self, thread_id: str, *, topic: str, as_of: str, model: str,
                  corpus: str = "") -> None:
        """Record that a run of ``thread_id`` started (or resumed): status ``running``.

        Args:
            corpus: the ``--corpus`` folder (absolute path), or ``""`` for the package docs; a
                resume uses it so a thread never mixes two corpora.
        """
        self._write(
            "INSERT INTO runs (thread_id, topic, as_of, model, status, started_at, corpus) "
            "VALUES (?, ?, ?, ?, 'running', ?, ?) ON CONFLICT(thread_id) DO UPDATE SET "
            "model = excluded.model, status = 'running', started_at = excluded.started_at, "
            "finished_at = NULL, corpus = excluded.corpus",
            (thread_id, topic, as_of, model, _now(), corpus),
        )

    def finish_run(
        self, thread_id: str, *, status: str, tokens: int = 0, report_path: str | None = None,
        summary: dict[str, Any] | None = None,
    ) -> None:
        """Record how a run ended: ``finished``, ``failed`` (envelopes in error) or ``error``."""
        self._write(
            "UPDATE runs SET status = ?, finished_at = ?, tokens = ?, report_path = ?, "
            "summary = ? WHERE thread_id = ?",
            (status, _now(), tokens, report_path,
             json.dumps(summary) if summary is not None else None, thread_id),
        )

    def _write(self, sql: str, params: Sequence[Any]) -> None:
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            self._conn.execute(sql, params)
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    def run(self, thread_id: str) -> dict[str, Any] | None:
        """The ``runs`` row of a thread, or None."""
        row = self._conn.execute("SELECT * FROM runs WHERE thread_id = ?", (thread_id,)).fetchone()
        return dict(row) if row else None

    def runs(self) -> list[dict[str, Any]]:
        """All ``runs`` rows, newest first."""
        return [dict(r) for r in self._conn.execute("SELECT * FROM runs ORDER BY started_at DESC")]
