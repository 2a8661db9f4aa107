"""A full disk is a failure (exit 1) that says so and loses nothing; never "bad input" (exit 2).

It used to exit 2 when the corpus index could not be written (reported as a corpus error, so as
bad input) and 1 with "run failed: disk I/O error" elsewhere. The data dir here is a real, small
``tmpfs`` mounted in a private mount namespace (``unshare --user --mount``, no privileges
needed), so the writes fail with the kernel's own ENOSPC; the same command then finishes the run
once the file system is enlarged (``mount -o remount,size=...``). Skipped where user namespaces
are not allowed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import AS_OF, CLI_TIMEOUT, ROOT, SMALL_TOPIC, clean_env
from tests.expected import expected_tasks

# Runs inside the namespace: mount, run the CLI at each size, report what happened as JSON.
_DRIVER = r"""
import json, sqlite3, subprocess, sys
mnt, corpus, *sizes = sys.argv[1:]
data = f"{mnt}/data"
subprocess.run(["mount", "-t", "tmpfs", "-o", "size=" + sizes[0], "tmpfs", mnt], check=True)
out = []
for i, size in enumerate(sizes):
    if i:
        subprocess.run(["mount", "-o", "remount,size=" + size, mnt], check=True)
    proc = subprocess.run(
        [sys.executable, "-m", "app", "research", TOPIC, "--as-of", AS_OF, "--corpus", corpus,
         "--data-dir", data], capture_output=True, text=True, timeout=TIMEOUT)
    out.append({"size": size, "rc": proc.returncode, "stdout": proc.stdout,
                "stderr": proc.stderr})
    shown = subprocess.run([sys.executable, "-m", "app", "threads", "--json", "--data-dir", data],
                           capture_output=True, text=True, timeout=TIMEOUT)
    out[-1]["threads"] = {"rc": shown.returncode, "stdout": shown.stdout, "stderr": shown.stderr}
with sqlite3.connect(f"{data}/results.sqlite") as conn:
    rows = [r[0] for r in conn.execute("SELECT envelope_id FROM results")]
print(json.dumps({"runs": out, "rows": rows}))
"""


def _namespaces_allowed() -> bool:
    if not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "true"],
                           capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(not _namespaces_allowed(),
                    reason="needs unshare with user and mount namespaces (util-linux)")
def test_a_full_disk_exits_1_says_so_and_the_same_command_finishes(tmp_path: Path,
                                                                   small_corpus: Path) -> None:
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    driver = (_DRIVER.replace("TOPIC", repr(SMALL_TOPIC)).replace("AS_OF", repr(AS_OF))
              .replace("TIMEOUT", repr(CLI_TIMEOUT)))
    # 16 KiB: the corpus index cannot be written; 320 KiB: the disk fills in the map step;
    # 8 MiB: room enough to finish.
    proc = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", sys.executable, "-c", driver,
         str(mnt), str(small_corpus), "16k", "320k", "8m"],
        cwd=ROOT, env=clean_env(), capture_output=True, text=True, timeout=3 * CLI_TIMEOUT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout)
    full_index, full_map, roomy = result["runs"]
    for run in (full_index, full_map):
        lines = run["stderr"].strip().splitlines()
        assert run["rc"] == 1, run
        assert len(lines) == 1 and lines[0].startswith("error: the disk is full ("), run
        assert "nothing was lost" in lines[0] and "run the same command again" in lines[0]
    # threads only reads: it shows the stopped thread on the full disk (it failed like the run,
    # "the disk is full", on a WAL index the full disk had cut short)
    shown = full_map["threads"]
    assert shown["rc"] == 0, shown
    assert [t["status"] for t in json.loads(shown["stdout"])] == ["unfinished"], shown
    assert roomy["rc"] == 0, roomy
    assert "resuming thread" in roomy["stdout"], roomy["stdout"]  # finished work was kept
    rows = result["rows"]
    assert len(rows) == len(set(rows)) == expected_tasks(SMALL_TOPIC)


# A run killed mid-map leaves its checkpoints in the WAL (a SIGKILL never checkpoints it); the
# WAL index (-shm) is then gone and the disk full, so no reader can make a new one on disk.
_WAL_DRIVER = r"""
import json, os, subprocess, sys
mnt, corpus = sys.argv[1:]
data = f"{mnt}/data"
subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mnt], check=True)
run = subprocess.run(
    [sys.executable, "-m", "app", "research", TOPIC, "--as-of", AS_OF, "--corpus", corpus,
     "--data-dir", data, "--crash-at", "map:2"], capture_output=True, text=True, timeout=TIMEOUT)
db = f"{data}/checkpoints.sqlite"
os.unlink(db + "-shm")
with open(f"{mnt}/filler", "wb") as fh:
    try:
        while True:
            fh.write(bytes(65536))
    except OSError:
        pass
before = {n: os.path.getsize(f"{db}{n}") for n in ("", "-wal")}
out = {"run": run.returncode, "before": before}
for name, args in (("threads", ["threads"]), ("inspect", ["inspect", THREAD])):
    proc = subprocess.run([sys.executable, "-m", "app", *args, "--json", "--data-dir", data],
                          capture_output=True, text=True, timeout=TIMEOUT)
    out[name] = {"rc": proc.returncode, "stdout": proc.stdout, "stderr": proc.stderr}
out["after"] = {n: os.path.getsize(f"{db}{n}") for n in ("", "-wal")}
print(json.dumps(out))
"""


@pytest.mark.skipif(not _namespaces_allowed(),
                    reason="needs unshare with user and mount namespaces (util-linux)")
def test_threads_and_inspect_read_a_wal_whose_index_a_full_disk_cannot_hold(
        tmp_path: Path, small_corpus: Path) -> None:
    # Trial 7: after a disk-full stop with a WAL that still held checkpoints, inspect and
    # threads failed ("the disk is full ... run the same command again"): the read-only open
    # could not make the WAL index, and the file alone lacks what the WAL holds.
    from app.runs.ids import default_thread_id

    mnt = tmp_path / "mnt"
    mnt.mkdir()
    thread = default_thread_id(SMALL_TOPIC, AS_OF)
    driver = (_WAL_DRIVER.replace("TOPIC", repr(SMALL_TOPIC)).replace("AS_OF", repr(AS_OF))
              .replace("TIMEOUT", repr(CLI_TIMEOUT)).replace("THREAD", repr(thread)))
    proc = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", sys.executable, "-c", driver,
         str(mnt), str(small_corpus)],
        cwd=ROOT, env=clean_env(), capture_output=True, text=True, timeout=3 * CLI_TIMEOUT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout)
    assert result["run"] != 0 and result["before"]["-wal"] > 0, result
    listed = result["threads"]
    assert listed["rc"] == 0, listed
    assert [(t["thread_id"], t["status"]) for t in json.loads(listed["stdout"])] == [
        (thread, "unfinished")], listed
    inspected = result["inspect"]
    assert inspected["rc"] == 0, inspected
    data = json.loads(inspected["stdout"])
    assert data["thread_id"] == thread and len(data["checkpoints"]) > 1, data
    assert result["after"] == result["before"], result  # read: nothing written, nothing lost
