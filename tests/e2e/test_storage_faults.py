"""A damaged database and a read-only data dir, through the real CLI.

* A damaged SQLite file (the checkpoints truncated to half; garbage written over the results)
  makes the commands that need it fail with one line that names the file and the way out (move
  it aside), exit 1, never a traceback; ``threads`` and ``inspect`` still show what the other
  database knows. Following the advice gets the run going again.
* ``threads``, ``inspect``, ``review THREAD_ID`` (no decision) and ``prune --dry-run`` on a
  read-only data dir open the databases read-only and work.
  As root (CI) file modes do not stop writes, so the data dir is made read-only with a read-only
  bind mount in a private mount namespace (``unshare -m``); the test is skipped where neither
  way is available.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import AS_OF, ROOT, SMALL_TOPIC, clean_env, run_cli
from tests.durability._helpers import CHECKPOINTS_DB, RESULTS_DB


def _research(data: Path, corpus: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return run_cli("research", SMALL_TOPIC, "--as-of", AS_OF, "--data-dir", data, "--corpus",
                   corpus, "--model", "offline", *extra)


pytestmark = pytest.mark.xdist_group(__name__)  # its module fixtures: one xdist worker runs it


@pytest.fixture(scope="module")
def _finished_template(tmp_path_factory: pytest.TempPathFactory,
                       small_corpus: Path) -> tuple[Path, str]:
    data = tmp_path_factory.mktemp("finished") / "data"
    proc = _research(data, small_corpus, "--json")
    assert proc.returncode == 0, proc.stderr
    return data, json.loads(proc.stdout)["thread_id"]


@pytest.fixture
def finished(_finished_template: tuple[Path, str], tmp_path: Path) -> tuple[Path, str]:
    """A copy of a data dir with one finished run; returns (data dir, thread id)."""
    template, thread_id = _finished_template
    data = tmp_path / "data"
    shutil.copytree(template, data)
    return data, thread_id


def _one_error_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


def test_truncated_checkpoints_are_named_with_the_way_out(finished, small_corpus) -> None:
    data, thread_id = finished
    path = data / CHECKPOINTS_DB
    size = path.stat().st_size
    with open(path, "r+b") as handle:
        handle.truncate(size // 2)

    proc = _research(data, small_corpus)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    line = _one_error_line(proc)
    assert str(path) in line and "damaged" in line and "move it aside" in line, line

    # threads still lists the thread (from the results database) and names the file
    proc = run_cli("threads", "--data-dir", data, "--json")
    assert proc.returncode == 1
    assert str(path) in _one_error_line(proc)
    assert [t["thread_id"] for t in json.loads(proc.stdout)] == [thread_id]

    # inspect still shows the thread's rows
    proc = run_cli("inspect", thread_id, "--data-dir", data, "--json")
    assert proc.returncode == 1
    assert str(path) in _one_error_line(proc)
    assert len(json.loads(proc.stdout)["rows"]) > 0
    # as text: the rows, and no "no checkpoints (status: finished) ..." line before the error
    # (it said the thread had none, then that the file was damaged: a new user's trial)
    proc = run_cli("inspect", thread_id, "--data-dir", data)
    assert proc.returncode == 1 and str(path) in _one_error_line(proc)
    assert "no checkpoints" not in proc.stdout and "envelope_id" in proc.stdout, proc.stdout

    # the way out works: move it aside, run again
    path.rename(path.with_name(path.name + ".damaged"))
    proc = _research(data, small_corpus, "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["ok"] is True


def test_garbage_in_the_results_database_is_named_with_the_way_out(finished,
                                                                    small_corpus) -> None:
    data, thread_id = finished
    path = data / RESULTS_DB
    for extra in data.glob(RESULTS_DB + "-*"):
        extra.unlink()
    path.write_bytes(b"this is no database, just garbage " * 400)

    proc = _research(data, small_corpus)
    assert proc.returncode == 1
    line = _one_error_line(proc)
    assert str(path) in line and "move it aside" in line, line

    proc = run_cli("threads", "--data-dir", data, "--json")  # from the checkpoints
    assert proc.returncode == 1
    assert str(path) in _one_error_line(proc)
    listed = json.loads(proc.stdout)
    assert [t["thread_id"] for t in listed] == [thread_id]
    assert listed[0]["topic"] == SMALL_TOPIC

    proc = run_cli("inspect", thread_id, "--data-dir", data, "--json")
    assert proc.returncode == 1
    assert str(path) in _one_error_line(proc)
    assert json.loads(proc.stdout)["checkpoints"]
    proc = run_cli("inspect", thread_id, "--data-dir", data)  # as text: no "no rows" line
    assert proc.returncode == 1 and str(path) in _one_error_line(proc)
    assert "no results database rows" not in proc.stdout and "checkpoints" in proc.stdout

    path.rename(path.with_name(path.name + ".damaged"))
    proc = _research(data, small_corpus, "--json")
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
    proc = _research(data, small_corpus)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert _one_error_line(proc) == (
        f"error: the corpus index {index} is damaged (database disk image is malformed); it "
        "was removed: the same command again rebuilds it")
    assert {r["envelope_id"]: r["status"] for r in db_rows(data, thread_id)} == good
    proc = _research(data, small_corpus, "--json")
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
    proc = _research(data, small_corpus, "--json")
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
        line = _one_error_line(proc)
        assert str(checkpoints) in line and str(results) in line, (args, line)
        assert "move them aside" in line, (args, line)

    # the way out works
    for path in (checkpoints, results):
        path.rename(path.with_name(path.name + ".damaged"))
    proc = _research(data, small_corpus, "--json")
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
    line = _one_error_line(proc)
    assert "holds no report" in line and "its run finished" in line, line
    assert "resume" not in line, line
    report = line.split("may still be at ", 1)[1].split(", and ", 1)[0]
    assert Path(report).is_file(), line


_READ_ONLY_MOUNT = ('mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" "$1" && '
                    'shift && exec "$@"')


def _run_read_only(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m app *args`` with ``data`` read-only (file modes, or a mount as root)."""
    command = [sys.executable, "-m", "app", *args]
    if os.geteuid() != 0:
        modes = {p: p.stat().st_mode for p in [data, *data.rglob("*")]}
        for p in modes:
            p.chmod(modes[p] & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
        try:
            return subprocess.run(command, cwd=ROOT, env=clean_env(), capture_output=True,
                                  text=True, timeout=120)
        finally:
            for p, mode in modes.items():
                p.chmod(mode)
    unshare = shutil.which("unshare")
    probe = subprocess.run([unshare or "unshare", "-m", "sh", "-c", _READ_ONLY_MOUNT, "sh",
                            str(data), "true"], capture_output=True, text=True)
    if unshare is None or probe.returncode != 0:
        pytest.skip(f"running as root without a way to mount read-only: {probe.stderr.strip()}")
    return subprocess.run([unshare, "-m", "sh", "-c", _READ_ONLY_MOUNT, "sh", str(data),
                           *command], cwd=ROOT, env=clean_env(), capture_output=True, text=True,
                          timeout=120)


def test_threads_and_inspect_work_on_a_read_only_data_dir(finished) -> None:
    data, thread_id = finished
    before = sorted(p.name for p in data.iterdir())
    proc = _run_read_only(data, "threads", "--data-dir", str(data), "--json")
    assert proc.returncode == 0, proc.stderr
    (listed,) = json.loads(proc.stdout)
    assert listed["thread_id"] == thread_id and listed["status"] == "finished"

    proc = _run_read_only(data, "inspect", thread_id, "--data-dir", str(data), "--json")
    assert proc.returncode == 0, proc.stderr
    shown = json.loads(proc.stdout)
    assert shown["checkpoints"] and shown["rows"]
    assert sorted(p.name for p in data.iterdir()) == before


def test_commands_that_write_refuse_a_read_only_data_dir_in_one_line(finished,
                                                                     small_corpus) -> None:
    # research and resume ended in "run failed: OSError: [Errno 30] Read-only file system:
    # .../locks/....lock", prune in "OperationalError: unable to open database file"
    data, thread_id = finished
    for args in (["research", SMALL_TOPIC, "--corpus", str(small_corpus)],
                 ["resume", thread_id], ["prune"], ["prune", "--thread-id", thread_id]):
        proc = _run_read_only(data, *args, "--data-dir", str(data))
        assert proc.returncode == 2, (args, proc.stderr)
        assert _one_error_line(proc) == (f"error: data dir {data} is not writable (read-only "
                                         "or no permission); threads, inspect and prune "
                                         "--dry-run still read it")


def test_a_read_only_database_file_is_refused_before_the_run(finished, small_corpus) -> None:
    # trial 8: results.sqlite read-only (the data dir writable) ended in "run failed:
    # OperationalError: attempt to write a readonly database", naming no file; checkpoints.sqlite
    # read-only, the same after every worker ran and the rows and report were rewritten
    from tests.results_db import db_rows

    data, thread_id = finished
    rows = db_rows(data, thread_id)
    for name in (RESULTS_DB, CHECKPOINTS_DB):
        path = data / name
        for args in (["research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus", str(small_corpus)],
                     ["resume", thread_id]):
            proc = _run_read_only(path, *args, "--data-dir", str(data))
            assert proc.returncode == 2, (name, args, proc.stdout, proc.stderr)
            assert _one_error_line(proc) == (
                f"error: {path} is not writable (read-only or no permission): a run could not "
                "save to it; threads, inspect and prune --dry-run still read it")
        assert db_rows(data, thread_id) == rows
    proc = _run_read_only(data / RESULTS_DB, "threads", "--data-dir", str(data))
    assert proc.returncode == 0, proc.stderr


def test_a_read_only_reports_or_locks_folder_is_refused_before_the_run(finished,
                                                                       small_corpus) -> None:
    # trial 9: reports/ read-only (the data dir writable) ended in "run failed: OSError ...
    # cannot write the report" after every worker ran and the rows were rewritten; locks/
    # read-only in "run failed: OSError: [Errno 30] Read-only file system", both exit 1
    from tests.results_db import db_rows

    data, thread_id = finished
    rows = db_rows(data, thread_id)
    for name, commands in (("reports", (["research", SMALL_TOPIC, "--as-of", AS_OF, "--corpus",
                                         str(small_corpus)], ["resume", thread_id])),
                           ("locks", (["resume", thread_id], ["prune"]))):
        folder = data / name
        assert folder.is_dir(), sorted(p.name for p in data.iterdir())
        for args in commands:
            proc = _run_read_only(folder, *args, "--data-dir", str(data))
            assert proc.returncode == 2, (name, args, proc.stdout, proc.stderr)
            assert _one_error_line(proc) == (
                f"error: {folder} is not writable (read-only or no permission): a run could "
                "not save to it; threads, inspect and prune --dry-run still read it")
            assert proc.stdout == "", proc.stdout  # refused before any worker ran
        assert db_rows(data, thread_id) == rows
    # --out elsewhere: the read-only reports/ is not where this run writes
    proc = _run_read_only(data / "reports", "research", SMALL_TOPIC, "--as-of", AS_OF,
                          "--corpus", str(small_corpus), "--data-dir", str(data), "--out",
                          str(data.parent / "elsewhere.md"))
    assert proc.returncode == 0, proc.stderr
    assert (data.parent / "elsewhere.md").is_file()


def test_prune_dry_run_works_on_a_read_only_data_dir(finished) -> None:
    # A dry run writes nothing, yet it was refused there like a prune (a new user's trial):
    # it reads, as threads and inspect do, and says what a prune would remove.
    data, thread_id = finished
    before = {p.name: p.stat().st_size for p in data.rglob("*")}
    for args in (["prune", "--dry-run", "--json"],
                 ["prune", "--dry-run", "--json", "--thread-id", thread_id]):
        proc = _run_read_only(data, *args, "--data-dir", str(data))
        assert proc.returncode == 0, (args, proc.stderr)
        result = json.loads(proc.stdout)
        (shown,) = result["threads"]
        assert shown["thread_id"] == thread_id and shown["action"] == "would prune", result
        assert shown["checkpoints_removed"] > 0 and result["bytes_freed"] == 0, result
    assert {p.name: p.stat().st_size for p in data.rglob("*")} == before  # no locks/, no -shm
    # the same counts as a dry run on the writable data dir, and as the prune itself
    dry = json.loads(run_cli("prune", "--dry-run", "--json", "--data-dir", data).stdout)
    done = json.loads(run_cli("prune", "--json", "--data-dir", data).stdout)
    for key in ("checkpoints_removed", "writes_removed"):
        assert result[key] == dry[key] == done[key], (key, result, dry, done)


def test_a_report_out_where_nothing_can_be_written_is_refused_before_the_run(tmp_path,
                                                                            small_corpus) -> None:
    # ``--out /proc/x.md``: os.access said yes (as root), every worker ran, then the report
    # failed naming its temp file
    if not Path("/proc/self").exists():
        pytest.skip("needs /proc")
    data = tmp_path / "data"
    proc = _research(data, small_corpus, "--out", "/proc/x.md")
    assert proc.returncode == 2, proc.stderr
    assert _one_error_line(proc) == "error: --out /proc/x.md: cannot write there"
    assert not data.exists()


def test_a_bad_or_unreachable_database_url_is_one_line(tmp_path: Path, small_corpus) -> None:
    proc = _research(tmp_path / "data", small_corpus, "--database-url", "mysql://u@h/x")
    assert proc.returncode == 2 and "postgresql://" in _one_error_line(proc)

    closed = "postgresql://me:s3cret@127.0.0.1:1/research"  # nothing listens on port 1
    for args in (["threads"], ["resume", "some-thread"]):
        proc = run_cli(*args, "--data-dir", tmp_path / "data", "--database-url", closed)
        assert proc.returncode == 1, proc.stderr
        line = _one_error_line(proc)
        assert "cannot connect to PostgreSQL at postgresql://me:***@127.0.0.1:1/research" in line
        assert "s3cret" not in proc.stdout + proc.stderr
    # trial 8: without a password there is nothing to mask, and the line names the server
    # (it said "at ***")
    proc = run_cli("threads", "--data-dir", tmp_path / "data", "--database-url",
                   "postgresql://bob@127.0.0.1:1/x")
    assert proc.returncode == 1, proc.stderr
    assert "cannot connect to PostgreSQL at postgresql://bob@127.0.0.1:1/x: " in (
        _one_error_line(proc))
    assert not (tmp_path / "data" / CHECKPOINTS_DB).exists()


def test_review_shows_what_a_thread_awaits_on_a_read_only_data_dir(tmp_path,
                                                                    small_corpus) -> None:
    # ``review THREAD_ID`` with no decision only reads (what the thread awaits), like inspect;
    # it was refused there as a command that writes (the sibling of ``prune --dry-run``)
    data = tmp_path / "data"
    paused = _research(data, small_corpus, "--review", "--json")
    assert paused.returncode == 0, paused.stderr
    thread_id = json.loads(paused.stdout)["thread_id"]
    before = sorted(p.name for p in data.rglob("*"))
    proc = _run_read_only(data, "review", thread_id, "--json", "--data-dir", str(data))
    assert proc.returncode == 0, proc.stderr
    shown = json.loads(proc.stdout)
    assert shown["status"] == "awaiting_review" and shown["thread_id"] == thread_id, shown
    proc = _run_read_only(data, "review", thread_id, "--approve", "--data-dir", str(data))
    assert proc.returncode == 2 and "is not writable" in _one_error_line(proc)
    assert sorted(p.name for p in data.rglob("*")) == before


def test_inspect_never_shows_the_thread_round_as_the_round_within_its_run(finished,
                                                                          small_corpus) -> None:
    # A new-user trial: with the checkpoints damaged, a rerun's rows (thread round 2, round 1
    # of their run) showed round 2 under "round: within its run"; they show "?" instead.
    data, thread_id = finished
    assert _research(data, small_corpus, "--quiet").returncode == 0  # the rerun: round 2
    before = run_cli("inspect", thread_id, "--data-dir", data, "--json")
    assert {r["run_round"] for r in json.loads(before.stdout)["rows"]} == {1}
    path = data / CHECKPOINTS_DB
    with open(path, "r+b") as handle:
        handle.truncate(path.stat().st_size // 2)
    for name in (CHECKPOINTS_DB + "-wal", CHECKPOINTS_DB + "-shm"):
        (data / name).unlink(missing_ok=True)
    after = run_cli("inspect", thread_id, "--data-dir", data, "--json")
    assert after.returncode == 1 and str(path) in _one_error_line(after)
    rows = json.loads(after.stdout)["rows"]
    assert {r["run_round"] for r in rows} == {None} and {r["round"] for r in rows} == {2}
    text = run_cli("inspect", thread_id, "--data-dir", data).stdout
    assert [line.split()[1] for line in text.splitlines() if line.startswith("ok ")] == [
        "?"] * len(rows), text
