"""A data dir whose database path is no file (trial 10, finding 32): ``checkpoints.sqlite`` a
folder (a ``mkdir`` mistake), ``results.sqlite`` a link to ``/dev/null`` (a backup script's),
or a named pipe. It said "run failed: OperationalError: disk I/O error" (or "unable to open
database file"), naming neither the file nor the way out, also from ``threads``; a named pipe
would block SQLite's open. Now it is told as a damaged file is (README, "What happens when
things go wrong"): one line naming the file, what it is and the way out, exit 1, and ``threads``
still lists what the other database knows.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import AS_OF, SMALL_TOPIC, run_cli
from tests.durability._helpers import CHECKPOINTS_DB, RESULTS_DB

pytestmark = pytest.mark.xdist_group(__name__)  # its module fixture: one xdist worker runs it


def _research(data: Path, corpus: Path, *extra: str):
    return run_cli("research", SMALL_TOPIC, "--as-of", AS_OF, "--data-dir", data, "--corpus",
                   corpus, "--model", "offline", *extra)


@pytest.fixture(scope="module")
def _template(tmp_path_factory: pytest.TempPathFactory, small_corpus: Path) -> tuple[Path, str]:
    data = tmp_path_factory.mktemp("finished") / "data"
    proc = _research(data, small_corpus, "--json")
    assert proc.returncode == 0, proc.stderr
    return data, json.loads(proc.stdout)["thread_id"]


def _folder(path: Path) -> None:
    path.mkdir()


def _devnull(path: Path) -> None:
    path.symlink_to("/dev/null")


def _fifo(path: Path) -> None:
    os.mkfifo(path)


GONE = "/nonexistent-research-folder/x.sqlite"


def _dangling(path: Path) -> None:  # trial 11: a backup script's link whose folder is gone
    path.symlink_to(GONE)


@pytest.mark.parametrize(("name", "make", "kind"), [
    (CHECKPOINTS_DB, _folder, "a folder"),
    (RESULTS_DB, _devnull, "a link to /dev/null, a device"),
    (RESULTS_DB, _fifo, "a named pipe"),
    (CHECKPOINTS_DB, _dangling, f"a link to {GONE}, whose folder does not exist"),
], ids=["checkpoints-folder", "results-devnull", "results-fifo", "checkpoints-dangling"])
def test_a_database_path_that_is_no_file_is_named_with_the_way_out(
        _template: tuple[Path, str], tmp_path: Path, small_corpus: Path, name: str,
        make: Callable[[Path], None], kind: str) -> None:
    template, thread_id = _template
    data = tmp_path / "data"
    shutil.copytree(template, data)
    path = data / name
    for old in data.glob(name + "*"):
        old.unlink()
    make(path)
    what = "checkpoint" if name == CHECKPOINTS_DB else "results"
    line = (f"error: the {what} database {path} is {kind}, not a database file; move it aside "
            f"(mv {path} {path}.damaged) and run again: ")

    proc = _research(data, small_corpus)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    (said,) = [ln for ln in proc.stderr.splitlines() if ln.startswith("error")]
    assert said.startswith(line), proc.stderr

    proc = run_cli("threads", "--data-dir", data, "--json")  # the other database's threads
    assert proc.returncode == 1 and proc.stderr.startswith(line), proc.stderr
    assert [t["thread_id"] for t in json.loads(proc.stdout)] == [thread_id]

    path.rename(path.with_name(path.name + ".damaged"))  # the way out works
    proc = _research(data, small_corpus, "--json")
    assert proc.returncode == 0, proc.stderr


def test_a_write_ahead_log_that_is_a_folder_is_named_with_the_way_out(
        _template: tuple[Path, str], tmp_path: Path, small_corpus: Path) -> None:
    # the sibling: SQLite said "unable to open database file"
    template, thread_id = _template
    data = tmp_path / "data"
    shutil.copytree(template, data)
    wal = data / f"{CHECKPOINTS_DB}-wal"
    if wal.exists():
        wal.unlink()
    wal.mkdir()
    proc = _research(data, small_corpus)
    assert proc.returncode == 1 and proc.stderr.splitlines() == [
        f"error: {wal}, a file SQLite keeps beside the checkpoint database, is a folder; move it "
        f"aside (mv {wal} {wal}.damaged) and run again: nothing is lost"], proc.stderr
    wal.rename(wal.with_name(wal.name + ".damaged"))
    proc = _research(data, small_corpus, "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["thread_id"] == thread_id
