"""A read-only data dir, through the real CLI.

* ``threads``, ``inspect``, ``review THREAD_ID`` (no decision) and ``prune --dry-run`` on a
  read-only data dir open the databases read-only and work; the commands that write refuse it
  (or a read-only database file, ``reports/`` or ``locks/`` folder, or an ``--out`` where
  nothing can be written) in one line, before anything runs.
  As root (CI) file modes do not stop writes, so the data dir is made read-only with a read-only
  bind mount in a private mount namespace (``unshare -m``); the test is skipped where neither
  way is available.

(A damaged database: ``test_damaged_databases.py``.)
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
from tests.e2e._storage_helpers import one_error_line, research

pytestmark = pytest.mark.xdist_group(__name__)  # its module fixtures: one xdist worker runs it


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
        assert one_error_line(proc) == (f"error: data dir {data} is not writable (read-only "
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
            assert one_error_line(proc) == (
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
            assert one_error_line(proc) == (
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


def test_review_shows_what_a_thread_awaits_on_a_read_only_data_dir(tmp_path,
                                                                    small_corpus) -> None:
    # ``review THREAD_ID`` with no decision only reads (what the thread awaits), like inspect;
    # it was refused there as a command that writes (the sibling of ``prune --dry-run``)
    data = tmp_path / "data"
    paused = research(data, small_corpus, "--review", "--json")
    assert paused.returncode == 0, paused.stderr
    thread_id = json.loads(paused.stdout)["thread_id"]
    before = sorted(p.name for p in data.rglob("*"))
    proc = _run_read_only(data, "review", thread_id, "--json", "--data-dir", str(data))
    assert proc.returncode == 0, proc.stderr
    shown = json.loads(proc.stdout)
    assert shown["status"] == "awaiting_review" and shown["thread_id"] == thread_id, shown
    proc = _run_read_only(data, "review", thread_id, "--approve", "--data-dir", str(data))
    assert proc.returncode == 2 and "is not writable" in one_error_line(proc)
    assert sorted(p.name for p in data.rglob("*")) == before


def test_a_report_out_where_nothing_can_be_written_is_refused_before_the_run(tmp_path,
                                                                            small_corpus) -> None:
    # ``--out /proc/x.md``: os.access said yes (as root), every worker ran, then the report
    # failed naming its temp file
    if not Path("/proc/self").exists():
        pytest.skip("needs /proc")
    data = tmp_path / "data"
    proc = research(data, small_corpus, "--out", "/proc/x.md")
    assert proc.returncode == 2, proc.stderr
    assert one_error_line(proc) == "error: --out /proc/x.md: cannot write there"
    assert not data.exists()
