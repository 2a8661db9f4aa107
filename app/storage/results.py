"""The results database: one row per (thread_id, envelope_id), written by upsert.

Once ``persist`` has run, this database (not graph state) is the source of truth for envelope
payloads. Every write is ``INSERT ... ON CONFLICT(thread_id, envelope_id) DO UPDATE`` inside one
transaction, so writing the same envelope again (a retried, resumed or re-dispatched task, or
``persist`` run a second time after a crash between its commit and its checkpoint) updates the
row in place, except that an error never replaces an ok row (the row keeps its result).
``write_count`` records how many times persist wrote a row, so that story can be inspected.

The SQL is the same on SQLite and PostgreSQL (both have ``ON CONFLICT ... DO UPDATE`` and
``excluded``); a backend supplies the connection, the transaction and the placeholder style.
Rows come back as plain dicts with the same keys on both.
"""

from __future__ import annotations

import datetime as dt
import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from workers.shared_strings import SharedStrings

__all__ = ["ADDED_RUN_COLUMNS", "RESULT_COLUMNS", "RUN_COLUMNS", "ResultsStore"]

RESULT_COLUMNS = (
    "envelope_id", "thread_id", "topic", "worker", "task_key", "as_of", "status", "error",
    "structured", "round", "attempts", "tokens", "task_id", "write_count", "first_written_at",
    "last_written_at",
)
RUN_COLUMNS = (
    "thread_id", "topic", "as_of", "model", "status", "started_at", "finished_at", "tokens",
    "report_path", "summary", "corpus", "report_out", "choices",
)
ADDED_RUN_COLUMNS = ("corpus", "report_out", "choices")
"""``runs`` columns added after the table was first made: opening a database for writing adds
those it lacks (``TEXT``, NULL in old rows); a read of an older database gives them as None."""

# One row per envelope per thread: the envelope id says which task (worker, sub-question, as_of);
# the thread says which run, so two threads (another topic that shares a sub-question, another
# corpus, --fresh) never write over each other's results. ``{seq}`` is the backend's insertion
# order column (SQLite's implicit ``rowid``; a ``BIGSERIAL`` on PostgreSQL). ``reports`` holds
# each thread's latest markdown report, so any machine that reaches the database can print it
# (``inspect THREAD_ID --report``). Every table is ``IF NOT EXISTS``: opening a database written
# before a table existed adds it and leaves the others' rows alone.
SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    {seq}
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
    corpus      TEXT,
    report_out  TEXT,
    choices     TEXT
);
CREATE TABLE IF NOT EXISTS reports (
    thread_id  TEXT PRIMARY KEY,
    report     TEXT NOT NULL,
    written_at TEXT NOT NULL
);
"""

_UPSERT = """
INSERT INTO results (envelope_id, thread_id, topic, worker, task_key, as_of, status, error,
                     structured, round, attempts, tokens, task_id, write_count,
                     first_written_at, last_written_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)
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
WHERE excluded.status <> 'error' OR results.status <> 'ok'
"""
"""One statement for both backends. Its ``WHERE`` is the rule of ``envelope_reducer``'s rule 8 for
the rows: an error never replaces an ok result of the same envelope (a rerun whose task failed
keeps the thread's earlier result), whatever state persist was given."""

_SAVE_REPORT = (
    "INSERT INTO reports (thread_id, report, written_at) VALUES (?, ?, ?) "
    "ON CONFLICT(thread_id) DO UPDATE SET report = excluded.report, "
    "written_at = excluded.written_at"
)

_START_RUN = (
    "INSERT INTO runs (thread_id, topic, as_of, model, status, started_at, corpus, report_out, "
    "choices) VALUES (?, ?, ?, ?, 'running', ?, ?, ?, ?) ON CONFLICT(thread_id) DO UPDATE SET "
    "model = excluded.model, status = 'running', started_at = excluded.started_at, "
    "finished_at = NULL, corpus = excluded.corpus, report_out = excluded.report_out, "
    "choices = excluded.choices"
)


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="microseconds")


class ResultsStore(ABC):
    """The results database of one backend; open it with ``Storage.results()``.

    One connection per instance; open one per thread or process. Writes are one transaction
    each and safe across processes.

    Subclasses implement :meth:`_query`, :meth:`_write`, :meth:`_has_table` and :meth:`close`,
    with SQL written with ``?`` placeholders, and set :attr:`order_column`.
    """

    order_column = "rowid"
    """The column that orders rows by insertion."""

    @abstractmethod
    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """Run a ``SELECT``; rows as dicts."""

    def _each(self, sql: str, params: Sequence[Any] = ()) -> Iterator[dict[str, Any]]:
        """Run a ``SELECT``; rows as dicts, one at a time where the driver reads them so (the
        report reads 1,200 payloads back: all their JSON text at once was 3 MB more)."""
        yield from self._query(sql, params)

    @abstractmethod
    def _write(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run ``sql`` once per parameter row (``rows`` may be a generator), all in one
        transaction (rolled back whole on any error, which is re-raised)."""

    @abstractmethod
    def _has_table(self, name: str) -> bool:
        """Whether table ``name`` exists (a read-only open of an older database may lack one)."""

    @abstractmethod
    def close(self) -> None:
        """Close the connection."""

    def __enter__(self) -> ResultsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def upsert(self, envelopes: Sequence[dict[str, Any]], *, thread_id: str, topic: str) -> int:
        """Write envelopes in one transaction: insert new ids, update existing ones in place,
        but for an error envelope whose row holds an ok result: that row is left as it is (an
        error never replaces an ok result, as in ``envelope_reducer``'s rule 8).

        Args:
            envelopes: envelope dicts (``structured`` is stored as JSON).
            thread_id: the run's thread.
            topic: the run's topic.

        Returns:
            The number of envelopes given (rows inserted, updated or kept).

        Raises:
            sqlite3.Error | psycopg.Error: the transaction is rolled back; nothing is
                half-written.
        """
        now = _now()
        # A generator, not a list: each row's JSON is built as the driver sends it, so a
        # persist of 12,000 envelopes never holds 12,000 payloads' JSON at once; the
        # transaction is still one.
        rows = (
            (
                e["envelope_id"], thread_id, topic, e["worker"], e.get("task_key", ""),
                e["as_of"], e.get("status", "ok"), e.get("error"),
                json.dumps(e["structured"], ensure_ascii=False)
                if e.get("structured") is not None else None,
                e.get("round", 1), e.get("attempts", 1), e.get("tokens", 0), e.get("task_id"),
                now, now,
            )
            for e in envelopes
        )
        if envelopes:
            self._write(_UPSERT, rows)
        return len(envelopes)

    def delete(self, envelope_ids: Iterable[str], *, thread_id: str) -> None:
        """Remove the rows of ``envelope_ids`` in ``thread_id``, in one transaction: envelopes
        dropped at a review that a time-travel replay decided differently. Deleting rows that
        are not there is a no-op, so running it again changes nothing.

        Raises:
            sqlite3.Error | psycopg.Error: the transaction is rolled back.
        """
        rows = [(eid, thread_id) for eid in dict.fromkeys(envelope_ids)]
        if rows:
            self._write("DELETE FROM results WHERE envelope_id = ? AND thread_id = ?", rows)

    def envelope_ids(self, *, thread_id: str) -> list[str]:
        """The envelope ids that have a row in ``thread_id`` (any ``as_of``), in the order they
        were first written (no payload is read)."""
        return [r["envelope_id"] for r in self._select("envelope_id", None, thread_id)]

    def rows(self, envelope_ids: Iterable[str] | None = None, *, thread_id: str | None = None
             ) -> list[dict[str, Any]]:
        """Read rows (``structured`` decoded), by envelope id, by thread, or all, in the order
        they were first written.

        Args:
            envelope_ids: only these ids (order of the result follows the table, not the input).
            thread_id: only rows of this thread.
        """
        selection = self._selection(", ".join(RESULT_COLUMNS), envelope_ids, thread_id)
        if selection is None:
            return []
        hook = SharedStrings().object_hook  # equal strings of the rows: one object
        out = []
        for item in self._each(*selection):  # decoded as read: no row's JSON text outlives it
            item["structured"] = (json.loads(item["structured"], object_hook=hook)
                                  if item["structured"] else None)
            out.append(item)
        return out

    def count_of(self, envelope_ids: Iterable[str], *, thread_id: str) -> int:
        """How many of ``envelope_ids`` have a row in ``thread_id``: what :meth:`rows` would
        return, counted without reading a payload (a run's summary of 12,000 rows decoded
        every row's JSON only to count them)."""
        return len(self._select("envelope_id", envelope_ids, thread_id))

    def _select(self, columns: str, envelope_ids: Iterable[str] | None, thread_id: str | None
                ) -> list[dict[str, Any]]:
        """``SELECT columns`` of the rows of ``envelope_ids`` (None: any) in ``thread_id``
        (None: any), in the order they were first written."""
        selection = self._selection(columns, envelope_ids, thread_id)
        return [] if selection is None else self._query(*selection)

    def _selection(self, columns: str, envelope_ids: Iterable[str] | None,
                   thread_id: str | None) -> tuple[str, list[Any]] | None:
        """The query and parameters of :meth:`_select`; None when ``envelope_ids`` is empty."""
        query, params = f"SELECT {columns} FROM results", []
        clauses = []
        if envelope_ids is not None:
            ids = list(envelope_ids)
            if not ids:
                return None
            clauses.append(f"envelope_id IN ({','.join('?' * len(ids))})")
            params.extend(ids)
        if thread_id is not None:
            clauses.append("thread_id = ?")
            params.append(thread_id)
        if clauses:
            query += " WHERE " + " AND ".join(clauses)
        query += f" ORDER BY {self.order_column}"
        return query, params

    def count(self, *, thread_id: str | None = None) -> int:
        """Number of rows (of one thread, or all)."""
        if thread_id is None:
            return int(self._query("SELECT COUNT(*) AS n FROM results")[0]["n"])
        return int(self._query("SELECT COUNT(*) AS n FROM results WHERE thread_id = ?",
                               (thread_id,))[0]["n"])

    def row_threads(self) -> list[dict[str, Any]]:
        """``{thread_id, topic, as_of, started_at}`` of every thread with result rows (newest
        first; ``started_at``: its first row's write time): among them the threads a LangGraph
        Server run wrote here, whose checkpoints are the server's and which have no ``runs``
        row."""
        return self._query(
            "SELECT thread_id, MIN(topic) AS topic, MIN(as_of) AS as_of, MIN(first_written_at) "
            "AS started_at FROM results GROUP BY thread_id ORDER BY started_at DESC")

    def duplicate_count(self) -> int:
        """Rows of one thread sharing a logical task (worker, task_key, as_of) beyond the first:
        must be 0."""
        return int(self._query(
            "SELECT COALESCE(SUM(n - 1), 0) AS extra FROM (SELECT COUNT(*) AS n FROM results "
            "GROUP BY thread_id, worker, task_key, as_of) AS per_task"
        )[0]["extra"])

    def start_run(self, thread_id: str, *, topic: str, as_of: str, model: str,
                  corpus: str = "", report_out: str | None = None,
                  choices: str | None = None) -> None:
        """Record that a run of ``thread_id`` started (or resumed): status ``running``.

        Args:
            corpus: the ``--corpus`` folder (absolute path), or ``""`` for the package docs; a
                resume uses it so a thread never mixes two corpora.
            report_out: the run's ``--out`` (absolute; a folder ends in ``/``), or None; a
                ``review``/``resume`` by id that names none writes its report there.
            choices: the run's ``--model``, ``--search-k`` and ``--max-tokens``, as JSON
                (:func:`app.runs.choices.choices_record`), or None; a run that continues the
                unfinished thread keeps them or says which it changes.
        """
        self._write(_START_RUN, [(thread_id, topic, as_of, model, _now(), corpus, report_out,
                                  choices)])

    def record_out(self, thread_id: str, report_out: str | None) -> None:
        """Record ``report_out`` (as :meth:`start_run` takes it) as the ``--out`` of the
        thread's run, its status unchanged: an ``--out`` given to a command that showed the
        thread's review pause is where the decision's report goes."""
        self._write("UPDATE runs SET report_out = ? WHERE thread_id = ?",
                    [(report_out, thread_id)])

    def finish_run(
        self, thread_id: str, *, status: str, tokens: int = 0, report_path: str | None = None,
        summary: dict[str, Any] | None = None,
    ) -> None:
        """Record how a run ended: ``finished``, ``partial`` (some envelopes in error), ``failed``
        (every one, or rows missing), ``error`` or ``interrupted``."""
        self._write(
            "UPDATE runs SET status = ?, finished_at = ?, tokens = ?, report_path = ?, "
            "summary = ? WHERE thread_id = ?",
            [(status, _now(), tokens, report_path,
              json.dumps(summary) if summary is not None else None, thread_id)],
        )

    def save_report(self, thread_id: str, markdown: str) -> None:
        """Keep ``markdown`` as the report of ``thread_id``, in one transaction: a new row, or
        the thread's row replaced (a rerun, a retry or a fork writes its report again).

        Raises:
            sqlite3.Error | psycopg.Error: the transaction is rolled back.
        """
        self._write(_SAVE_REPORT, [(thread_id, markdown, _now())])

    def report(self, thread_id: str) -> str | None:
        """The markdown report of ``thread_id`` (its latest run's), or None: no report yet, or
        a database written before reports were kept."""
        if not self._has_table("reports"):
            return None
        rows = self._query("SELECT report FROM reports WHERE thread_id = ?", (thread_id,))
        return rows[0]["report"] if rows else None

    def run(self, thread_id: str) -> dict[str, Any] | None:
        """The ``runs`` row of a thread (:data:`RUN_COLUMNS`), or None."""
        rows = self._runs("WHERE thread_id = ?", (thread_id,))
        return rows[0] if rows else None

    def runs(self) -> list[dict[str, Any]]:
        """All ``runs`` rows (:data:`RUN_COLUMNS`), newest first."""
        return self._runs("ORDER BY started_at DESC")

    def _runs(self, tail: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """``runs`` rows as :data:`RUN_COLUMNS` dicts: ``SELECT *``, so that a database opened
        read-only before a column was added (:data:`ADDED_RUN_COLUMNS`) reads it as None."""
        return [{c: row.get(c) for c in RUN_COLUMNS}
                for row in self._query(f"SELECT * FROM runs {tail}", params)]
