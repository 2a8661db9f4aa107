"""A damaged database, through the real CLI.

* A damaged SQLite file (the checkpoints truncated to half; garbage written over the results)
  makes the commands that need it fail with one line that names the file and the way out (move
  it aside), exit 1, never a traceback; ``threads`` and ``inspect`` still show what the other
  database knows. Following the advice gets the run going again.
* A damaged corpus index never replaces the thread's good rows; a results database lost under
  a finished thread, and a bad or unreachable database URL, are said in one line.

(A read-only data dir: ``test_read_only_data_dir.py``.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import AS_OF, SMALL_TOPIC, run_cli
from tests.durability._helpers import CHECKPOINTS_DB, RESULTS_DB
from tests.e2e._storage_helpers import one_error_line, research

pytestmark = pytest.mark.xdist_group(__name__)  # its module fixtures: one xdist worker runs it


def test_truncated_checkpoints_are_named_with_the_way_out(finished, small_corpus) -> None:
    data, thread_id = finished
    path = data / CHECKPOINTS_DB
    size = path.stat().st_size
    with open(path, "r+b") as handle:
        handle.truncate(size // 2)

    proc = research(data, small_corpus)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    line = one_error_line(proc)
    assert str(path) in line and "damaged" in line and "move it aside" in line, line

    # threads still lists the thread (from the results database) and names the file
    proc = run_cli("threads", "--data-dir", data, "--json")
    assert proc.returncode == 1
    assert str(path) in one_error_line(proc)
    assert [t["thread_id"] for t in json.loads(proc.stdout)] == [thread_id]

    # inspect still shows the thread's rows
    proc = run_cli("inspect", thread_id, "--data-dir", data, "--json")
    assert proc.returncode == 1
    assert str(path) in one_error_line(proc)
    assert len(json.loads(proc.stdout)["rows"]) > 0
    # as text: the rows, and no "no checkpoints (status: finished) ..." line before the error
    # (it said the thread had none, then that the file was damaged: a new user's trial)
    proc = run_cli("inspect", thread_id, "--data-dir", data)
    assert proc.returncode == 1 and str(path) in one_error_line(proc)
    assert "no checkpoints" not in proc.stdout and "envelope_id" in proc.stdout, proc.stdout

    # the way out works: move it aside, run again
    path.rename(path.with_name(path.name + ".damaged"))
    proc = research(data, small_corpus, "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["ok"] is True


def test_garbage_in_the_results_database_is_named_with_the_way_out(finished,
                                                                    small_corpus) -> None:
    data, thread_id = finished
    path = data / RESULTS_DB
    for extra in data.glob(RESULTS_DB + "-*"):
        extra.unlink()
    path.write_bytes(b"this is no database, just garbage " * 400)

    proc = research(data, small_corpus)
    assert proc.returncode == 1
    line = one_error_line(proc)
    assert str(path) in line and "move it aside" in line, line

    proc = run_cli("threads", "--data-dir", data, "--json")  # from the checkpoints
    assert proc.returncode == 1
    assert str(path) in one_error_line(proc)
    listed = json.loads(proc.stdout)
    assert [t["thread_id"] for t in listed] == [thread_id]
    assert listed[0]["topic"] == SMALL_TOPIC

    proc = run_cli("inspect", thread_id, "--data-dir", data, "--json")
    assert proc.returncode == 1
    assert str(path) in one_error_line(proc)
    assert json.loads(proc.stdout)["checkpoints"]
    proc = run_cli("inspect", thread_id, "--data-dir", data)  # as text: no "no rows" line
    assert proc.returncode == 1 and str(path) in one_error_line(proc)
    assert "no results database rows" not in proc.stdout and "checkpoints" in proc.stdout

    path.rename(path.with_name(path.name + ".damaged"))
    proc = research(data, small_corpus, "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["ok"] is True and summary["db_rows"] == summary["expected"]


@pytest.mark.parametrize(("db", "tables"), [
    # an earlier layout's results, keyed by envelope_id alone (before 2026-11-30)
    (RESULTS_DB, "CREATE TABLE results (envelope_id TEXT PRIMARY KEY, worker TEXT, "
                 "task_key TEXT, as_of TEXT, status TEXT, structured TEXT)"),
    (RESULTS_DB, "CREATE TABLE runs (thread_id TEXT PRIMARY KEY)"),  # another program's
    (CHECKPOINTS_DB, "CREATE TABLE checkpoints (a); CREATE TABLE writes (b)"),
    # trial 46, F1: a file of another program's tables only was adopted (ours added, WAL)
    (RESULTS_DB, "CREATE TABLE photos (id INTEGER PRIMARY KEY); INSERT INTO photos VALUES (1)"),
    (CHECKPOINTS_DB, "CREATE TABLE photos (id INTEGER PRIMARY KEY)"),
])
def test_a_database_of_another_layout_is_named_with_the_way_out_before_any_task_runs(
        tmp_path: Path, small_corpus, db: str, tables: str) -> None:
    # trial 28, finding 8: every task ran, then persist failed with a raw OperationalError
    # naming no file ("ON CONFLICT clause does not match any PRIMARY KEY"); threads failed too
    import sqlite3

    data = tmp_path / "data"
    data.mkdir()
    with sqlite3.connect(data / db) as conn:
        conn.executescript(tables)
    proc = research(data, small_corpus, "--json")
    assert proc.returncode == 1
    line = one_error_line(proc)
    assert str(data / db) in line and "move it aside" in line
    assert "of another layout" in line or "holds tables this app does not make" in line, line
    proc = run_cli("threads", "--data-dir", data)
    assert proc.returncode == 1 and str(data / db) in one_error_line(proc)
    with sqlite3.connect(data / db) as conn:  # the file as it was: nothing added, not WAL
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal"
    assert names == {t.split()[2] for t in tables.split(";") if t.strip().startswith("CREATE")}

    (data / db).rename(data / f"{db}.damaged")  # the way out the line names
    proc = research(data, small_corpus, "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["ok"] is True and summary["db_rows"] == summary["expected"]


def test_a_damaged_corpus_index_never_replaces_the_threads_good_rows(finished,
                                                                     small_corpus) -> None:
    # trial 8: garbage inside the corpus index made every rerun fail 8 of its 9 tasks with
    # "database disk image is malformed", send them again, and replace the thread's good rows
    # with error rows; no line named the file, and rerunning never healed it
    import sqlite3

    from tests.results_db import db_rows

    data, thread_id = finished
    good = {r["envelope_id"]: r["status"] for r in db_rows(data, thread_id)}
    assert set(good.values()) == {"ok"}
    (index,) = data.glob("corpus-*.sqlite")
    # the full-text index's content garbled, its b-trees whole (SQLite's quick_check passes):
    # found only when a search reads it
    with sqlite3.connect(index) as con:
        blocks = con.execute("SELECT id, length(block) FROM passages_fts_data WHERE id > 10")
        con.executemany("UPDATE passages_fts_data SET block = ? WHERE id = ?",
                        [(b"\xa5" * n, i) for i, n in blocks.fetchall()])
    proc = research(data, small_corpus)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert one_error_line(proc) == (
        f"error: the corpus index {index} is damaged (database disk image is malformed); it "
        "was removed: the same command again rebuilds it")
    assert {r["envelope_id"]: r["status"] for r in db_rows(data, thread_id)} == good
    proc = research(data, small_corpus, "--json")
    assert proc.returncode == 0, proc.stderr
    assert {r["envelope_id"]: r["status"] for r in db_rows(data, thread_id)} == good
    # garbage over its pages (a bad disk): found when it is opened, and it is built again
    with sqlite3.connect(index) as con:
        (size,) = con.execute("PRAGMA page_size").fetchone()
        (root,) = con.execute("SELECT rootpage FROM sqlite_master "
                              "WHERE name = 'passages_fts_data'").fetchone()
    with open(index, "r+b") as handle:
        handle.seek((root - 1) * size)
        handle.write(b"\xa5" * size)
    proc = research(data, small_corpus, "--json")
    assert proc.returncode == 0, proc.stderr
    assert {r["envelope_id"]: r["status"] for r in db_rows(data, thread_id)} == good


def test_both_databases_damaged_is_one_line_naming_both(finished, small_corpus) -> None:
    # threads and inspect printed two lines (one per database), research named only the
    # checkpoints: moving that aside led to the second fault (a new user's trial)
    data, thread_id = finished
    checkpoints, results = data / CHECKPOINTS_DB, data / RESULTS_DB
    for extra in [*data.glob(CHECKPOINTS_DB + "-*"), *data.glob(RESULTS_DB + "-*")]:
        extra.unlink()
    with open(checkpoints, "r+b") as handle:
        handle.truncate(checkpoints.stat().st_size // 2)
    results.write_bytes(b"this is no database, just garbage " * 400)

    for args in (["threads"], ["inspect", thread_id], ["inspect", thread_id, "--report"],
                 ["research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", str(small_corpus)],
                 ["prune", "--dry-run"]):
        proc = run_cli(*args, "--data-dir", data)
        assert proc.returncode == 1, (args, proc.stderr)
        line = one_error_line(proc)
        assert str(checkpoints) in line and str(results) in line, (args, line)
        assert "move them aside" in line, (args, line)

    # the way out works
    for path in (checkpoints, results):
        path.rename(path.with_name(path.name + ".damaged"))
    proc = research(data, small_corpus, "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["ok"] is True


def test_report_of_a_finished_thread_whose_results_database_was_lost(finished) -> None:
    # It said the run "has not reached the report (python -m app resume ...)", and resume then
    # answered "nothing left to resume" (a new user's trial): say what is true instead.
    data, thread_id = finished
    for path in data.glob(RESULTS_DB + "*"):
        path.unlink()
    proc = run_cli("inspect", thread_id, "--report", "--data-dir", data)
    assert proc.returncode == 2 and proc.stdout == "", proc.stderr
    line = one_error_line(proc)
    assert "holds no report" in line and "its run finished" in line, line
    assert "resume" not in line, line
    report = line.split("may still be at ", 1)[1].split(", and ", 1)[0]
    assert Path(report).is_file(), line


def test_a_bad_or_unreachable_database_url_is_one_line(tmp_path: Path, small_corpus) -> None:
    proc = research(tmp_path / "data", small_corpus, "--database-url", "mysql://u@h/x")
    assert proc.returncode == 2 and "postgresql://" in one_error_line(proc)

    closed = "postgresql://me:s3cret@127.0.0.1:1/research"  # nothing listens on port 1
    for args in (["threads"], ["resume", "some-thread"]):
        proc = run_cli(*args, "--data-dir", tmp_path / "data", "--database-url", closed)
        assert proc.returncode == 75, proc.stderr  # out of reach: try later (trial 58, F4)
        line = one_error_line(proc)
        assert "cannot connect to PostgreSQL at postgresql://me:***@127.0.0.1:1/research" in line
        assert "s3cret" not in proc.stdout + proc.stderr
    # trial 8: without a password there is nothing to mask, and the line names the server
    # (it said "at ***")
    proc = run_cli("threads", "--data-dir", tmp_path / "data", "--database-url",
                   "postgresql://bob@127.0.0.1:1/x")
    assert proc.returncode == 75, proc.stderr
    assert "cannot connect to PostgreSQL at postgresql://bob@127.0.0.1:1/x: " in (
        one_error_line(proc))
    assert not (tmp_path / "data" / CHECKPOINTS_DB).exists()


def test_inspect_never_shows_the_thread_round_as_the_round_within_its_run(finished,
                                                                          small_corpus) -> None:
    # A new-user trial: with the checkpoints damaged, a rerun's rows (thread round 2, round 1
    # of their run) showed round 2 under "round: within its run"; they show "?" instead.
    data, thread_id = finished
    assert research(data, small_corpus, "--quiet").returncode == 0  # the rerun: round 2
    before = run_cli("inspect", thread_id, "--data-dir", data, "--json")
    assert {r["run_round"] for r in json.loads(before.stdout)["rows"]} == {1}
    # trial 20, finding 11: `.round` read 2 in --json beside the table's 1; the header names both
    shown = " ".join(run_cli("inspect", thread_id, "--data-dir", data).stdout.split())
    assert "round: within its run, --json's run_round; its round counts the thread's" in shown
    path = data / CHECKPOINTS_DB
    with open(path, "r+b") as handle:
        handle.truncate(path.stat().st_size // 2)
    for name in (CHECKPOINTS_DB + "-wal", CHECKPOINTS_DB + "-shm"):
        (data / name).unlink(missing_ok=True)
    after = run_cli("inspect", thread_id, "--data-dir", data, "--json")
    assert after.returncode == 1 and str(path) in one_error_line(after)
    rows = json.loads(after.stdout)["rows"]
    assert {r["run_round"] for r in rows} == {None} and {r["round"] for r in rows} == {2}
    text = run_cli("inspect", thread_id, "--data-dir", data).stdout
    assert [line.split()[1] for line in text.splitlines() if line.startswith("ok ")] == [
        "?"] * len(rows), text
    # trial 14, finding 9: a "?" with no word of why
    assert "?: no checkpoint here tells where its runs began" in " ".join(text.split()), text
