"""PostgreSQL restarted between the report and the run's last checkpoint (issue 21, item 6).

The run used to print "persisted 12 ..." and "report written", then exit 1 with ``run failed:
AdminShutdown`` and a stray psycopg line (``error ignored terminating <psycopg.Pipeline
[BAD]>``). It must name the cause (the database went away) in one line, say truthfully that the
rows and the report were written and the final checkpoint was not, and how to continue; and the
advice works.

The restart is made deterministic by a small wrapper around ``python -m app``: the first time
the saver writes after the report file exists (so persist's rows are committed and the report
is on disk), it restarts the server (``pg_ctl stop -m fast``, then start), then lets the write
go on, on the connection the server has just ended. The sibling: the restart comes after the
graph's end, when the run reads its final state back for the summary (the saver's first
``get_tuple`` after the report).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import AS_OF, ROOT, SMALL_TOPIC, clean_env, run_cli
from tests.pgserver import PostgresServer

_RESTART_AFTER_REPORT = """\
import runpy, sys
from pathlib import Path
from langgraph.checkpoint.postgres import PostgresSaver
from tests.pgserver import PostgresServer

report, server = Path(sys.argv[1]), PostgresServer(int(sys.argv[2]), Path(sys.argv[3]))
hooks = sys.argv[4].split(",")
done = []

def restarting(original):
    def write(self, *args, **kwargs):
        if not done and report.exists():
            done.append(True)
            server.restart()
        return original(self, *args, **kwargs)
    return write

for name in hooks:
    setattr(PostgresSaver, name, restarting(getattr(PostgresSaver, name)))
sys.argv = ["python -m app", *sys.argv[5:]]
runpy.run_module("app", run_name="__main__", alter_sys=True)
"""


def _restarted(postgres_server: PostgresServer, report: Path, hooks: str,
               args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _RESTART_AFTER_REPORT, str(report), str(postgres_server.port),
         str(postgres_server.folder), hooks, *args],
        cwd=ROOT, env=clean_env(), capture_output=True, text=True, timeout=300)


def _one_error_line(proc: subprocess.CompletedProcess[str]) -> str:
    # try later (75): the same command finishes the thread once the database is back, as it
    # does when the server is out of reach at the next connection (trial 58, F4)
    assert proc.returncode == 75, proc.stdout + proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr  # no stray psycopg line, no traceback
    assert lines[0].startswith("error: "), lines
    assert "PostgreSQL" in lines[0] and "went away" in lines[0], lines
    assert "(the server was shut down or restarted" in lines[0] or "connection was lost" in lines[0]
    return lines[0]


def test_a_database_restart_after_the_report_is_named_and_the_run_says_what_it_saved(
        tmp_path: Path, small_corpus: Path, postgres_server: PostgresServer) -> None:
    url = postgres_server.create_database()
    report = tmp_path / "report.md"
    args = ["research", SMALL_TOPIC, "--as-of", AS_OF, "--data-dir", str(tmp_path / "data"),
            "--corpus", str(small_corpus), "--model", "offline", "--database-url", url,
            "--out", str(report)]
    line = _one_error_line(_restarted(postgres_server, report, "put,put_writes", args))
    # truthful: the rows and the report were written, the last checkpoint was not
    assert report.exists() and "Zorblax" in report.read_text(encoding="utf-8")
    assert str(report) in line and "rows" in line and "checkpoint" in line, line
    assert "run the same command again" in line, line
    # the rows really are in the database
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT count(*) FROM results").fetchone()[0]
    assert rows > 0 and f"{rows} rows" in line, line
    # and the advice works: the same command finishes the thread
    again = run_cli(*args)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "Traceback" not in again.stderr
    threads = run_cli("threads", "--data-dir", tmp_path / "data", "--database-url", url)
    assert threads.returncode == 0 and "finished" in threads.stdout, threads.stdout


def test_a_database_restart_after_the_graph_ended_says_everything_was_saved(
        tmp_path: Path, small_corpus: Path, postgres_server: PostgresServer) -> None:
    url = postgres_server.create_database()
    report = tmp_path / "report.md"
    args = ["research", SMALL_TOPIC, "--as-of", AS_OF, "--data-dir", str(tmp_path / "data"),
            "--corpus", str(small_corpus), "--model", "offline", "--database-url", url,
            "--out", str(report)]
    line = _one_error_line(_restarted(postgres_server, report, "get_tuple", args))
    assert "after the run ended" in line and "last checkpoint were saved" in line, line
    thread_id = line.split("`inspect ")[1].split("`")[0]
    inspect = run_cli("inspect", thread_id, "--data-dir", tmp_path / "data", "--database-url",
                      url)
    assert inspect.returncode == 0, inspect.stdout + inspect.stderr
    assert report.exists()
