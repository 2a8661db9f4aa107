"""What a user sees while a run struggles, and what an interrupt leaves behind:

* every retry LangGraph's RetryPolicy makes is announced as a ``retry`` progress line (workers
  write it to LangGraph's ``custom`` stream), so a flaky provider never looks like a hang;
* Ctrl-C (SIGINT) mid-run exits 130 with one line and no traceback, and the same command
  then finishes the thread with one row per envelope;
* SIGTERM (``kill``, ``docker stop``) is handled the same way: exit 143, one line saying how to
  resume, the run recorded as ``interrupted`` (it used to die silently, marked ``running``), and
  the workers still queued give up instead of running (under SIGTERM they all ran first).
"""

from __future__ import annotations

import json
import shlex
import signal
import subprocess
import sys

import pytest

from tests.conftest import ROOT, clean_env, run_cli
from tests.expected import expected_tasks
from tests.results_db import db_rows, db_runs

TOPIC = "Zorblax relay"


def _args(data_dir, corpus, *extra):
    return ["research", TOPIC, "--corpus", str(corpus), "--data-dir", str(data_dir),
            "--as-of", "2026-11-30", *map(str, extra)]


def test_retries_are_announced_as_they_happen(tmp_path, small_corpus):
    proc = run_cli(*_args(tmp_path / "data", small_corpus, "--fail-rate", "0.5", "--seed", "3",
                          "--rounds", "3"),
                   env={"RESEARCH_RETRY_INTERVAL": "0.01"})
    retries = [line for line in proc.stdout.splitlines() if " retry " in line]
    assert retries, proc.stdout
    assert all("attempt" in line and "TransientWorkerError" in line for line in retries)
    retried = sum(r["attempts"] > 1 for r in db_rows(tmp_path / "data"))
    assert retried > 0  # the lines stand for real retries


@pytest.mark.parametrize(
    ("signum", "code", "line"),
    [(signal.SIGINT, 130, "interrupted: the run can be resumed with: "),
     (signal.SIGTERM, 143, "terminated (SIGTERM): the run can be resumed with: ")],
    ids=["ctrl-c", "sigterm"],
)
def test_a_stop_signal_stops_cleanly_and_the_same_command_finishes(tmp_path, small_corpus,
                                                                   signum, code, line):
    data = tmp_path / "data"
    # slow the map step down (retries wait 0.5 s+) so the signal lands mid-run
    log = tmp_path / "run.log"
    args = _args(data, small_corpus, "--fail-rate", "0.6", "--seed", "5", "--max-concurrency", "1",
                 "--run-log", log)
    proc = subprocess.Popen([sys.executable, "-m", "app", *args], cwd=ROOT, env=clean_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for out in proc.stdout:
        if out.startswith("["):  # the first worker result: the map step is under way
            break
    proc.send_signal(signum)
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == code, stderr
    assert "Traceback" not in stderr
    # its own command, exact (with its --as-of) and quoted: pasted, it finds the thread
    assert stderr.strip().splitlines() == [line + f"uv run python -m app {shlex.join(args)}"]
    assert [r["status"] for r in db_runs(data)] == ["interrupted"]
    # the queued workers were told at once: they gave up instead of running to the end
    produced = log.read_text().splitlines() if log.exists() else []
    assert len(produced) < expected_tasks(TOPIC), produced
    listed = run_cli("threads", "--data-dir", data, "--json")
    assert [t["status"] for t in json.loads(listed.stdout)] == ["unfinished"], listed.stdout

    done = run_cli(*_args(data, small_corpus))
    assert done.returncode == 0, done.stderr
    assert "resuming thread" in done.stdout
    rows = [r["envelope_id"] for r in db_rows(data)]
    assert len(rows) == len(set(rows)) == expected_tasks(TOPIC)


def test_json_gets_one_object_when_a_run_is_stopped(tmp_path, small_corpus):
    # Issue 21: with --json a stopped run (130 here; 75, thread busy, in
    # tests/durability/test_edges.py) printed nothing on stdout: a script got no outcome.
    data = tmp_path / "data"
    args = _args(data, small_corpus, "--fail-rate", "1", "--json")
    env = {**clean_env(), "RESEARCH_RETRY_INTERVAL": "20"}  # every task waits before its retry
    proc = subprocess.Popen([sys.executable, "-m", "app", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for out in proc.stderr:  # --json: progress goes to stderr
        if " retry " in out:
            break
    proc.send_signal(signal.SIGINT)
    stdout, _ = proc.communicate(timeout=120)
    assert proc.returncode == 130, stdout
    assert json.loads(stdout) == {
        "status": "interrupted", "exit_code": 130, "thread_id": db_runs(data)[0]["thread_id"],
        "error": f"interrupted: the run can be resumed with: uv run python -m app "
                 f"{shlex.join(args)}"}
    bad = run_cli("resume", "no-such-thread", "--data-dir", data, "--json")  # and bad input
    assert bad.returncode == 2 and json.loads(bad.stdout)["exit_code"] == 2, bad.stdout
    flag = run_cli("review", "t", "--drop", "--json")  # a bad flag: argparse's own exit
    assert flag.returncode == 2 and json.loads(flag.stdout)["status"] == "bad_input"


def test_ctrl_c_during_review_approve_stops_at_once_not_after_the_retry_wait(tmp_path,
                                                                             small_corpus):
    """``review --approve`` runs the map step; Ctrl-C while a task waits before its retry used
    to take the whole wait (up to 5 s by default; 20 s here) before exiting (issue 21, 11)."""
    import time

    data = tmp_path / "data"
    paused = run_cli(*_args(data, small_corpus, "--review", "--json"))
    assert paused.returncode == 0, paused.stderr
    thread = json.loads(paused.stdout)["thread_id"]
    env = {**clean_env(), "RESEARCH_RETRY_INTERVAL": "20", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "review", thread, "--approve", "--data-dir", str(data),
         "--corpus", str(small_corpus), "--fail-rate", "1"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for out in proc.stdout:
        if " retry " in out:  # a task failed and now waits 20 s before its next attempt
            break
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=120)
    took = time.monotonic() - sent
    assert proc.returncode == 130, stderr
    assert stderr.strip().splitlines() == [
        "interrupted: the run can be resumed with: uv run python -m app review "
        f"{thread} --approve --data-dir {data} --corpus {small_corpus} --fail-rate 1"]
    assert took < 10, f"exited {took:.1f} s after Ctrl-C: it waited out the retry"
    for stage in ("plan, resumed", "results"):  # the same command finishes the thread
        done = run_cli("review", thread, "--approve", "--data-dir", data, "--corpus",
                       small_corpus)
        assert done.returncode == 0, (stage, done.stderr)
    rows = [r["envelope_id"] for r in db_rows(data)]
    assert len(rows) == len(set(rows)) == expected_tasks(TOPIC)
