"""A ``--crash-at`` point either kills the process once, or the run says it was never reached.

Found running the workshop in front of a room (issue 14): ``map:20`` with 12 tasks, and ``map:9``
of 12 at the default concurrency (every attempt had started before the 9th worker finished), both
ended with exit 0 as if no crash had been asked for; ``map:0`` printed the kill line twice (four
workers reached it at the same moment).
"""

from __future__ import annotations

from pathlib import Path

from tests.durability._helpers import (
    AS_OF,
    EXPECTED_TASKS,
    SIGKILLED,
    TOPIC,
    db_rows,
    describe,
    read_run_log,
    run_app,
    thread_id_of,
)
from tests.results_db import db_run


def _research(data: Path, corpus: Path, log: Path, *extra: str):
    return run_app("research", TOPIC, "--as-of", AS_OF, "--data-dir", data, "--corpus", corpus,
                   "--model", "offline", "--run-log", log, "--quiet", *extra)


def test_a_crash_point_past_the_last_task_is_said_and_fails_the_command(tmp_path,
                                                                         durability_corpus):
    k = EXPECTED_TASKS + 8
    run = _research(tmp_path / "data", durability_corpus, tmp_path / "log",
                    "--crash-at", f"map:{k}")
    assert run.returncode == 1, describe(run)
    errors = [line for line in run.stderr.splitlines() if line.startswith("error:")]
    assert errors == [
        f"error: --crash-at map:{k} was never reached: {EXPECTED_TASKS} worker(s) finished in "
        f"this process, and the kill comes only after {k} have; nothing was killed (pick K "
        "below the number of tasks the run has left)"
    ], describe(run)
    assert f"note: --crash-at map:{k} was never reached" in run.stdout
    # the run itself is complete: nothing lost because the demo was mis-aimed
    assert len(db_rows(tmp_path / "data")) == EXPECTED_TASKS


def test_a_crash_point_after_every_attempt_started_kills_when_the_next_worker_finishes(
        tmp_path, durability_corpus):
    # Four workers at a time (the default): once EXPECTED_TASKS - 4 have finished, every attempt
    # has started, so no later attempt start can carry the kill; a finishing worker does.
    k = EXPECTED_TASKS - 3
    run = _research(tmp_path / "data", durability_corpus, tmp_path / "log",
                    "--crash-at", f"map:{k}", "--max-concurrency", "4")
    assert run.returncode in SIGKILLED, describe(run)
    finished = read_run_log(tmp_path / "log")
    assert k <= len(finished) < EXPECTED_TASKS, describe(run)
    assert db_rows(tmp_path / "data") == []  # killed before persist


def test_map_0_prints_the_kill_line_once(tmp_path, durability_corpus):
    run = _research(tmp_path / "data", durability_corpus, tmp_path / "log",
                    "--crash-at", "map:0", "--max-concurrency", "4")
    assert run.returncode in SIGKILLED, describe(run)
    kills = [line for line in run.stderr.splitlines() if line.startswith("crash-at ")]
    assert len(kills) == 1 and kills[0].startswith("crash-at map:0: sending SIGKILL"), (
        describe(run))
    assert read_run_log(tmp_path / "log") == []


def test_a_thread_whose_results_database_was_deleted_resumes_on_its_own_corpus(
        tmp_path, durability_corpus):
    # Trial 22, finding 1, and its sibling: the thread's corpus was recorded only in the
    # results database's runs row; with the file deleted after a kill, `resume THREAD_ID`
    # continued on the package docs (the default) without a word. The checkpoints keep it.
    data = tmp_path / "data"
    run = _research(data, durability_corpus, tmp_path / "log", "--crash-at", "map:3",
                    "--max-concurrency", "1", "--durability", "sync")
    assert run.returncode in SIGKILLED, describe(run)
    for path in data.glob("results.sqlite*"):
        path.unlink()
    other = tmp_path / "other"
    other.mkdir()
    (other / "zebra.md").write_text("# Zebras\n\nZebras graze on the savanna.\n")
    refused = run_app("resume", thread_id_of(), "--data-dir", data, "--corpus", other)
    assert refused.returncode == 2, describe(refused)
    assert f"--corpus {durability_corpus}" in refused.stderr, describe(refused)
    resumed = run_app("resume", thread_id_of(), "--data-dir", data, "--quiet")
    assert resumed.returncode == 0, describe(resumed)
    assert len(db_rows(data)) == EXPECTED_TASKS
    assert str(durability_corpus) in (db_run(data, thread_id_of()) or {}).get("corpus", "")
