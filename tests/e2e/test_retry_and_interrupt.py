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


# Trial 10, finding 7: SIGTERM in the first seconds of a run (start-up, the corpus index build)
# killed the process without a line or a JSON object, where Ctrl-C at the same moment got both.
# Each driver sends the signal to the CLI's own process at a set point of its start-up.
_SIGNAL_AT_SETTINGS = """
import os, signal, sys
import app.cli.commands as commands
from app.cli import main

def settings_of(args):  # the first thing a run does: the signal comes right then
    os.kill(os.getpid(), signal.{signame})
    return real(args)

real, commands.settings_of = commands.settings_of, settings_of
sys.exit(main(sys.argv[1:]))
"""

_SIGNAL_DURING_IMPORT = """
import os, runpy, signal, sys

class SignalOnImport:  # the signal comes while `python -m app` imports the CLI's commands
    def find_spec(self, name, path=None, target=None):
        if name == "app.cli.commands":
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.{signame})
        return None

sys.meta_path.insert(0, SignalOnImport())
sys.argv[0] = "app"
runpy.run_module("app", run_name="__main__", alter_sys=True)
"""


@pytest.mark.parametrize("driver", [_SIGNAL_AT_SETTINGS, _SIGNAL_DURING_IMPORT],
                         ids=["at-start", "during-imports"])
@pytest.mark.parametrize(("signame", "status", "code", "said"),
                         [("SIGTERM", "terminated", 143, "terminated (SIGTERM)"),
                          ("SIGINT", "interrupted", 130, "interrupted")],
                         ids=["sigterm", "ctrl-c"])
def test_a_stop_signal_before_the_run_starts_gets_its_line_and_json(tmp_path, driver, signame,
                                                                     status, code, said):
    args = ["research", TOPIC, "--data-dir", str(tmp_path / "data"), "--as-of", "2026-11-30",
            "--json"]
    # the CLI's default dispositions, as a shell or a process manager starts it
    proc = subprocess.run(
        [sys.executable, "-c", driver.replace("{signame}", signame), *args], cwd=ROOT,
        env=clean_env(), capture_output=True, text=True, timeout=120,
        preexec_fn=lambda: [signal.signal(s, signal.SIG_DFL)
                            for s in (signal.SIGINT, signal.SIGTERM)])
    line = (f"{said}: the run stopped before it started its thread; to start it again: "
            f"uv run python -m app {shlex.join(args)}")
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stderr.strip().splitlines() == [line]
    assert json.loads(proc.stdout) == {"status": status, "exit_code": code, "error": line,
                                       "thread_id": None}
    assert not (tmp_path / "data").exists()  # nothing was written


def test_sigterm_during_the_index_build_leaves_no_temp_index(tmp_path, small_corpus):
    # the build's temp file goes with the run it belonged to (a SIGKILL's is removed by the next
    # build of the same corpus)
    driver = """
import os, signal, sys
import workers.sources.index as index
from app.cli import main

def insert_rows(*args):  # the temp index exists and is being filled
    os.kill(os.getpid(), signal.SIGTERM)
    return real(*args)

real, index._insert_rows = index._insert_rows, insert_rows
sys.exit(main(sys.argv[1:]))
"""
    data = tmp_path / "data"
    proc = subprocess.run([sys.executable, "-c", driver, *_args(data, small_corpus, "--json")],
                          cwd=ROOT, env=clean_env(), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 143, proc.stderr
    assert json.loads(proc.stdout)["status"] == "terminated"
    assert [p.name for p in data.iterdir() if p.name.endswith((".tmp", ".sqlite"))] == [], \
        sorted(p.name for p in data.iterdir())
