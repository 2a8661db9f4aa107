"""Helpers of the durability tests: run the CLI in a subprocess, read what a run left behind.

Where a run keeps its data is a :class:`Place`: a data dir, plus a PostgreSQL URL for the
PostgreSQL backend (``Place.args`` are the CLI flags that select it; a plain ``Path`` means the
SQLite files of that data dir). Everything here reads the databases directly (the results with
``tests/results_db.py``, which every test suite shares, the checkpoints with LangGraph's own
``SqliteSaver`` or ``PostgresSaver``), so the assertions do not depend on the app's own storage
or reporting code (``threads``/``inspect`` are tested on their own).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.cli_env import ROOT, clean_env, run_cli  # the CLI runs from the repository root
from tests.expected import (
    all_pass_in_round_one,
    expected_tasks,
    find_seed,
    first_ok_attempts,
    is_stock_registry,
)
from tests.results_db import (  # re-exported: the durability tests import them from here
    RESULTS_DB,
    Place,
    as_place,
    db_rows,
    db_run,
    logical_duplicates,
    pg_query,
)

AS_OF = "2026-11-30"
TOPIC = "Send and reducers"
"""The offline planner splits it into 3 sub-questions: one task per sub-question per worker."""
OTHER_TOPIC = "checkpoints vs pending writes"
"""A second topic of 3 sub-questions (a comparison plans them on any corpus)."""
EXPECTED_TASKS = expected_tasks(TOPIC)
"""Sub-questions of TOPIC x registered workers (9 with the stock three workers)."""

CHECKPOINTS_DB = "checkpoints.sqlite"
BACKENDS = ["sqlite", "postgres"]
TIMEOUT = 180.0

SIGKILLED = (-9, 137)
"""A process killed by SIGKILL: ``-9`` from ``subprocess``, 137 through a shell."""

CORPUS_FILES: dict[str, str] = {
    "send.md": """# Send

Send dispatches one task to a node with its own input. A conditional edge returns a list of Send
objects to fan out work in parallel, one task per item.

Each Send target runs in the same superstep, and the results are folded into state by the
channel's reducer.

A conditional edge that builds Send objects must not raise: keep it pure and put fallible work in
nodes.
""",
    "reducers.md": """# Reducers

A reducer decides how a channel folds the writes of one superstep. Without a reducer, two writes
to the same key in one superstep are an error.

An idempotent reducer, such as an upsert by id, gives the same state when a write is applied
twice.

Warning: operator.add duplicates entries when the same list is written again, for example by a
subgraph that returns its full state.
""",
    "durability.md": """# Durability and checkpoints

A checkpointer saves the state after every superstep. The pending writes of finished tasks are
saved before the superstep ends, so a resumed run does not run them again.

With durability sync the checkpoint is written before the next step starts; with async it is
written in the background; with exit only when the graph exits.

Caveat: durability exit plus a hard kill leaves no checkpoint at all, so the whole run is
computed again.
""",
}


def write_corpus(folder: Path) -> Path:
    """Write the small corpus into ``folder``; return it."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in CORPUS_FILES.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def app_cmd(*args: str | os.PathLike[str]) -> list[str]:
    return [sys.executable, "-m", "app", *map(str, args)]


def run_app(*args: str | os.PathLike[str], timeout: float = TIMEOUT
            ) -> subprocess.CompletedProcess[str]:
    """``python -m app *args`` from the repository root; stdout and stderr captured. A real
    process of its own, killed for real by ``--crash-at``: a child of the tests' fork server
    (:func:`tests.cli_env.run_cli`).

    The result also has ``pid`` (the process id the run log records)."""
    return run_cli(*args, timeout=timeout)


def popen_app(*args: str | os.PathLike[str], env: dict[str, str] | None = None
              ) -> subprocess.Popen[str]:
    """Start ``python -m app *args`` without waiting (``communicate()`` it); ``env``: variables
    set on top of the tests' clean environment."""
    return subprocess.Popen(app_cmd(*args), cwd=ROOT, env=clean_env(env), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, encoding="utf-8")


def describe(proc: subprocess.CompletedProcess[str]) -> str:
    """The end of a process's output, for assertion messages."""
    return (f"exit {proc.returncode}\n--- stdout ---\n{proc.stdout[-3000:]}"
            f"\n--- stderr ---\n{proc.stderr[-3000:]}")


def thread_id_of(topic: str = TOPIC, as_of: str = AS_OF) -> str:
    from app.runs.ids import default_thread_id

    return default_thread_id(topic, as_of)


def expected_envelope_ids(topic: str = TOPIC, as_of: str = AS_OF) -> set[str]:
    """The envelope ids of every (worker, sub-question) of ``topic`` with the offline planner."""
    from app.research.plan import offline_plan
    from state import make_envelope_id
    from workers.registry import WORKERS

    return {make_envelope_id(w.name, q, as_of) for q in offline_plan(topic) for w in WORKERS}


def fault_seed(seed: int, topics: Sequence[str], *, fail_rate: float, need: Sequence[int],
               premise: str) -> int:
    """The ``--seed`` for ``--fail-rate fail_rate`` runs of ``topics``: ``seed`` when with it
    every task of each topic succeeds within its attempts in round 1 and, in each topic, some
    task succeeds on each attempt number in ``need`` (``(2, 3)``: some retried once, some
    twice). Whether an attempt fails depends only on seed, envelope id, round and attempt
    (``FaultPlan.injects_failure``), so another plan or worker changes the draws: for a registry
    with other workers the next seed that fits is returned; for the stock registry the test
    fails and names it (``premise`` says what the seed must give, for that message).
    """
    def fits(candidate: int) -> bool:
        return all(all_pass_in_round_one(first_ok_attempts(fail_rate, candidate, topic, AS_OF),
                                         need=need)
                   for topic in topics)

    if fits(seed):
        return seed
    found = find_seed(fits, start=seed + 1)
    assert not is_stock_registry(), (
        f"--seed {seed} no longer lets {premise}; set SEED = {found}")
    return found


# ---- the run log (--run-log): one line per finished worker attempt ------------------------


@dataclass(frozen=True)
class LogLine:
    envelope_id: str
    attempt: int
    status: str
    pid: int


def read_run_log(path: Path) -> list[LogLine]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            eid, attempt, status, pid = line.split("\t")
            out.append(LogLine(eid, int(attempt), status, int(pid)))
    return out


def id_counts(lines: Sequence[LogLine]) -> Counter[str]:
    return Counter(line.envelope_id for line in lines)


# ---- the checkpoints (LangGraph's SqliteSaver / PostgresSaver) -------------------------------


def sessions_ended(url: str, timeout: float = 30.0) -> None:
    """Wait until no other session is connected to ``url``'s database: a SIGKILLed run's
    backends end only once the server notices, and a COMMIT it sent just before the kill may
    still land. Read at once, the checkpoint missed a pending write that the resume then found
    (CI, map:6-sync-resume-postgres, under load): the test's view, not the run, was behind."""
    import time

    sql = ("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() "
           "AND pid <> pg_backend_pid()")
    deadline = time.monotonic() + timeout
    while pg_query(url, sql)[0]["n"] and time.monotonic() < deadline:
        time.sleep(0.05)


def latest_checkpoint(where: Place | Path, thread_id: str) -> Any:
    """The latest ``CheckpointTuple`` of the thread's root graph, or None (no checkpoint)."""
    place = as_place(where)
    config = {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}
    if place.database_url:
        from langgraph.checkpoint.postgres import PostgresSaver

        sessions_ended(place.database_url)
        if not pg_query(place.database_url, "SELECT 1 FROM checkpoints LIMIT 1"):
            return None
        with PostgresSaver.from_conn_string(place.database_url) as saver:
            return saver.get_tuple(config)
    from langgraph.checkpoint.sqlite import SqliteSaver

    path = place.data_dir / CHECKPOINTS_DB
    if not path.exists():
        return None
    conn = sqlite3.connect(path, check_same_thread=False, timeout=30.0)
    try:
        return SqliteSaver(conn).get_tuple(config)
    finally:
        conn.close()


def checkpoint_count(where: Place | Path, thread_id: str) -> int:
    place = as_place(where)
    if place.database_url:
        rows = pg_query(place.database_url,
                         "SELECT COUNT(*) AS n FROM checkpoints WHERE thread_id = %s",
                         (thread_id,))
        return rows[0]["n"] if rows else 0
    path = place.data_dir / CHECKPOINTS_DB
    if not path.exists():
        return 0
    with sqlite3.connect(path, timeout=30.0) as conn:
        try:
            return conn.execute("SELECT COUNT(*) FROM checkpoints WHERE thread_id = ?",
                                (thread_id,)).fetchone()[0]
        except sqlite3.OperationalError:  # no table yet
            return 0


def delete_checkpoints_after_step(where: Place | Path, thread_id: str, step: int) -> int:
    """Delete the thread's checkpoints whose metadata step is above ``step`` (their writes are
    kept), as a kill that lost the latest checkpoints would; return how many were deleted."""
    place = as_place(where)
    if place.database_url:
        import psycopg

        with psycopg.connect(place.database_url) as conn:
            return conn.execute(
                "DELETE FROM checkpoints WHERE thread_id = %s AND "
                "(metadata->>'step')::int > %s", (thread_id, step)).rowcount
    with sqlite3.connect(place.data_dir / CHECKPOINTS_DB) as conn:
        return conn.execute(
            "DELETE FROM checkpoints WHERE thread_id = ? AND json_extract(metadata, '$.step') > ?",
            (thread_id, step),
        ).rowcount


def checkpoint_envelopes(tup: Any) -> list[dict[str, Any]]:
    """The ``envelopes`` channel of a saved checkpoint (pending writes not applied)."""
    if tup is None:
        return []
    return list(tup.checkpoint["channel_values"].get("envelopes") or [])


def pending_envelope_ids(tup: Any) -> list[str]:
    """Envelope ids in the saved pending writes (channel ``envelopes``) of a checkpoint: the
    results of tasks that finished in the interrupted superstep and were saved."""
    if tup is None:
        return []
    ids = []
    for _task_id, channel, value in tup.pending_writes or []:
        if channel != "envelopes":
            continue
        for envelope in value if isinstance(value, list) else [value]:
            ids.append(envelope["envelope_id"])
    return ids


# ---- the results database -------------------------------------------------------------------


def assert_completed_thread(where: Place | Path, thread_id: str, *,
                            expected: int = EXPECTED_TASKS
                            ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The end state every completed run must have; returns (state envelopes, DB rows).

    * the last checkpoint's envelopes are unique by id, as many as workers x sub-questions,
      all persisted, with no ``structured`` payload left in state;
    * the DB holds exactly one row per envelope for the thread, and no logical duplicate;
    * the report file exists.
    """
    from workers.registry import WORKERS

    tup = latest_checkpoint(where, thread_id)
    assert tup is not None, "a completed run must leave a checkpoint"
    values = tup.checkpoint["channel_values"]
    envelopes = checkpoint_envelopes(tup)
    ids = [e["envelope_id"] for e in envelopes]
    assert len(ids) == len(set(ids)), f"duplicate envelopes in state: {Counter(ids)}"
    assert len(ids) == len(values["sub_questions"]) * len(WORKERS) == expected
    assert all(e.get("persisted") is True for e in envelopes), "an envelope is not persisted"
    assert all(e.get("structured") is None for e in envelopes), "a payload is left in state"
    assert not tup.pending_writes or all(w[1] != "envelopes" for w in tup.pending_writes)

    rows = db_rows(where, thread_id)
    row_ids = [r["envelope_id"] for r in rows]
    assert sorted(row_ids) == sorted(ids), "DB rows and state envelopes differ"
    assert not logical_duplicates(db_rows(where)), "two rows for one logical task"

    report = values.get("report_path")
    assert report and Path(report).is_file(), f"no report at {report!r}"
    run = db_run(where, thread_id)
    assert run is not None and run["report_path"] == report
    place = as_place(where)
    if place.database_url:  # the promise: nothing of the run in the data dir's SQLite files
        written = [p.name for p in place.data_dir.glob("*.sqlite*")
                   if p.name.startswith((CHECKPOINTS_DB, RESULTS_DB))]
        assert written == [], f"a PostgreSQL run wrote {written} in the data dir"
    return envelopes, rows
