"""The data dir, or its checkpoint or results database, deleted while a run goes (issue 21,
item 4; the results database: trial 58, F1).

SQLite keeps writing to a file that was unlinked, and persist made the results database again:
the run used to print "db rows: 12, persisted: 12/12" and exit 0 with its checkpoints, lock and
run record gone (``threads`` then said "No threads yet" next to 12 rows). It must notice, stop
with one line saying so, exit 1, claim nothing and make no data dir again. The same while a
folder's corpus index is built (a new user's trial: it was exit 2 with a raw errno line).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import AS_OF, ROOT, SMALL_TOPIC, clean_env, run_cli
from tests.durability._helpers import CHECKPOINTS_DB, RESULTS_DB


def _delete_mid_run(data: Path, corpus: Path, delete) -> subprocess.CompletedProcess[str]:
    """Start a slowed-down run; once the map step is under way (the second result), ``delete``
    its storage, then let it go on."""
    args = ["research", SMALL_TOPIC, "--as-of", AS_OF, "--data-dir", str(data), "--corpus",
            str(corpus), "--model", "offline", "--fail-rate", "0.5", "--seed", "3",
            "--max-concurrency", "1"]
    proc = subprocess.Popen([sys.executable, "-m", "app", *args], cwd=ROOT,
                            env={**clean_env(), "PYTHONUNBUFFERED": "1"},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = []
    for line in proc.stdout:
        seen.append(line)
        if line.lstrip("[ ").startswith("2/"):
            break
    else:
        pytest.fail("the run ended before its second result: " + "".join(seen))
    delete(data)
    out, err = proc.communicate(timeout=300)
    return subprocess.CompletedProcess(proc.args, proc.returncode, "".join(seen) + out, err)


def _rmtree(data: Path) -> None:
    """``rm -rf`` of a folder the run still writes in: a file it makes between rmtree's listing
    and its rmdir leaves the folder "not empty" (a CI run saw it), so go again, as a user would."""
    for _ in range(20):
        try:
            shutil.rmtree(data)
            return
        except OSError:
            if not data.exists():
                return
    shutil.rmtree(data)


def _stopped_claiming_nothing(proc) -> str:
    """The one error line of a run that stopped (exit 1) and claimed nothing on stdout."""
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert "Traceback" not in proc.stderr
    for claim in ("db rows:", "persisted", "report written", "summary:"):
        assert claim not in proc.stdout, proc.stdout
    return lines[0]


def _checkpoints_only(data: Path) -> None:
    for path in data.glob(f"{CHECKPOINTS_DB}*"):
        path.unlink()


@pytest.mark.parametrize("delete", [_rmtree, _checkpoints_only],
                         ids=["data dir", "checkpoint database"])
def test_a_run_whose_storage_is_deleted_stops_and_claims_nothing(tmp_path, small_corpus,
                                                                 delete) -> None:
    data = tmp_path / "data"
    line = _stopped_claiming_nothing(_delete_mid_run(data, small_corpus, delete))
    assert "was deleted during the run" in line and str(data) in line
    if delete is _rmtree:
        assert not data.exists(), sorted(os.listdir(data))  # not made again behind its back
    # and the advice works: the same command starts over and finishes
    again = run_cli("research", SMALL_TOPIC, "--as-of", AS_OF, "--data-dir", data, "--corpus",
                    small_corpus, "--model", "offline")
    assert again.returncode == 0, again.stderr


@pytest.mark.parametrize("delete", [shutil.rmtree, "index"], ids=["data dir", "index temp file"])
def test_storage_deleted_while_a_folder_is_indexed_is_one_line_exit_1(
        tmp_path: Path, small_corpus: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], cli_env: None, delete) -> None:
    # A new user deleted the data dir while a large folder was indexed: exit 2 ("bad input")
    # with "[Errno 2] No such file or directory: '.../.corpus-....tmp' -> ...". It is the run's
    # storage vanishing, as mid-run: one line naming it, exit 1, nothing made again. In process,
    # so the deletion lands mid-build every time (after the first file is read).
    import workers.sources.folder as folder_mod
    from app.cli import main

    data = tmp_path / "data"
    real = folder_mod.folder_docs

    def deleting(files, *rest):
        docs = real(files, *rest)
        yield next(docs)
        if delete == "index":
            for tmp in data.glob(".corpus-*.tmp"):
                tmp.unlink()
        else:
            delete(data)
        yield from docs

    monkeypatch.setattr(folder_mod, "folder_docs", deleting)
    args = ["research", SMALL_TOPIC, "--as-of", AS_OF, "--data-dir", str(data), "--corpus",
            str(small_corpus), "--model", "offline", "--quiet"]
    assert main(args) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    assert "Errno" not in lines[0] and str(data) in lines[0], lines
    if delete == "index":
        assert "corpus index being built in the data dir" in lines[0], lines
        assert [p.name for p in data.iterdir() if p.suffix in (".sqlite", ".tmp")] == []
    else:
        assert "was deleted while the corpus index was being built" in lines[0], lines
        assert not data.exists(), sorted(os.listdir(data))  # not made again behind its back
    monkeypatch.setattr(folder_mod, "folder_docs", real)
    assert main(args) == 0, capsys.readouterr().err  # the same command starts over


def _results_only(data: Path) -> None:
    for path in data.glob(f"{RESULTS_DB}*"):
        path.unlink()


def _results_replaced(data: Path) -> None:
    """Another results database put in its place (a backup copied back over it)."""
    import sqlite3

    _results_only(data)
    sqlite3.connect(data / "elsewhere.sqlite").close()
    (data / "elsewhere.sqlite").rename(data / RESULTS_DB)


@pytest.mark.parametrize("delete", [_results_only, _results_replaced],
                         ids=["deleted", "replaced"])
def test_a_run_whose_results_database_is_deleted_stops_and_claims_nothing(tmp_path, small_corpus,
                                                                         delete) -> None:
    # Trial 58, F1 (item 4's sibling): SQLite made results.sqlite again at persist's next open,
    # and the run printed "persisted: 9/9 ... errors: 0" and exit 0 into a new, empty database:
    # the run record made at its start was gone, and `threads` showed the thread "unknown".
    data = tmp_path / "data"
    line = _stopped_claiming_nothing(_delete_mid_run(data, small_corpus, delete))
    assert f"the results database {data / RESULTS_DB} was deleted (or replaced)" in line
    if delete is _results_only:
        assert not list(data.glob(f"{RESULTS_DB}*")), sorted(os.listdir(data))  # not made again
    # the advice works: the same command goes on from the last checkpoint and finishes, its
    # record made again (threads knows the thread)
    again = run_cli("research", SMALL_TOPIC, "--as-of", AS_OF, "--data-dir", data, "--corpus",
                    small_corpus, "--model", "offline")
    assert again.returncode == 0, again.stdout + again.stderr
    assert "resuming thread" in again.stdout, again.stdout
    listed = run_cli("threads", "--data-dir", data)
    assert "unknown" not in listed.stdout and "finished" in listed.stdout, listed.stdout


def test_a_run_whose_lock_file_is_deleted_stops_and_claims_nothing(tmp_path, small_corpus):
    # A new user cleared the data dir's locks/ folder while a run went (it looks like a stale
    # lock after an exit-75 refusal): the run went on, a second process then locked a new file
    # and ran the same thread alongside it. The run notices at its next event and stops.
    data = tmp_path / "data"
    proc = _delete_mid_run(data, small_corpus, lambda d: _rmtree(d / "locks"))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert "lock file" in lines[0] and str(data / "locks") in lines[0], lines[0]
    for claim in ("db rows:", "report written", "summary:"):
        assert claim not in proc.stdout, proc.stdout
    again = run_cli("research", SMALL_TOPIC, "--as-of", AS_OF, "--data-dir", data, "--corpus",
                    small_corpus, "--model", "offline")
    assert again.returncode == 0, again.stderr
    assert "resuming thread" in again.stdout, again.stdout  # from its last checkpoint


def test_a_write_after_the_data_dir_is_deleted_does_not_make_it_again(tmp_path: Path) -> None:
    # A CI run saw the data dir made again holding results.sqlite: a write that raced the
    # deletion (persist's, or the error path's run record) made the folder. A run holding a
    # thread lock there never makes it again; the error is the deletion's, said as one line.
    import sqlite3

    from app.storage import open_storage
    from app.storage.base import StorageVanished

    data = tmp_path / "data"
    storage = open_storage(data)
    with storage.results() as store:  # the first run makes the data dir
        store.start_run("t", topic="x", as_of=AS_OF, model="offline")
    with storage.thread_lock("t"):
        shutil.rmtree(data)
        with pytest.raises(sqlite3.OperationalError), storage.results() as store:
            store.finish_run("t", status="error")
        assert not data.exists()
        assert isinstance(storage.lost(), StorageVanished)
    with storage.results() as store:  # no run holds it: the next run makes it again
        assert store.run("t") is None
