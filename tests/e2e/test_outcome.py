"""The run's outcome is in its final state, and the CLI's exit code follows it (issue 9 section
2): no failed task -> ``ok`` and exit 0; some tasks failed for good -> ``partial`` and exit 1; every
task failed -> ``failed`` and exit 1. ``failed_tasks`` names each, as the summary does, so a
LangGraph Server client reading the thread's state sees what the CLI prints.
"""

from __future__ import annotations

import json

import pytest

from app.research.plan import offline_plan
from app.runs.ids import default_thread_id
from app.storage.sqlite import SqliteResults, SqliteStorage
from tests.conftest import AS_OF, SMALL_TOPIC, run_cli, run_cli_many
from workers.registry import WORKERS

NAMES = [w.name for w in WORKERS]
CASES = {"ok": [], "partial": NAMES[1:], "failed": NAMES}
"""outcome -> the workers made to fail for good (with the stock registry, 8 of 12 tasks fail
in the partial case)."""


pytestmark = pytest.mark.xdist_group(__name__)  # its module fixtures: one xdist worker runs it


@pytest.fixture(scope="module")
def outcome_runs(small_corpus, tmp_path_factory):
    base = tmp_path_factory.mktemp("outcome")
    args = {}
    for name, failing in CASES.items():
        fails = [a for worker in failing for a in ("--fail-worker", worker)]
        args[name] = ["research", SMALL_TOPIC, "--corpus", small_corpus, "--as-of", AS_OF,
                      "--data-dir", base / name, "--rounds", "1", "--json", *fails]
    return base, run_cli_many(args)


@pytest.mark.parametrize("outcome", list(CASES))
def test_outcome_is_in_the_final_state_and_sets_the_exit_code(outcome_runs, outcome):
    base, procs = outcome_runs
    proc = procs[outcome]
    assert proc.returncode == (0 if outcome == "ok" else 1), proc.stderr
    assert "Traceback" not in proc.stderr
    questions = offline_plan(SMALL_TOPIC)
    n_failed = len(CASES[outcome]) * len(questions)
    if outcome == "partial":
        assert n_failed < len(WORKERS) * len(questions)

    thread_id = default_thread_id(SMALL_TOPIC, AS_OF)
    with SqliteStorage(base / outcome).checkpointer() as saver:
        state = saver.get_tuple({"configurable": {"thread_id": thread_id}}).checkpoint
    values = state["channel_values"]
    assert values["outcome"] == outcome
    failed = values["failed_tasks"]
    assert len(failed) == n_failed
    assert {t["worker"] for t in failed} == set(CASES[outcome])
    assert all(t["error"] and t["task_key"] in questions and t["envelope_id"] for t in failed)

    summary = json.loads(proc.stdout)
    assert summary["outcome"] == outcome and summary["ok"] is (outcome == "ok")
    assert len(summary["errors"]) == n_failed
    with SqliteResults.in_dir(base / outcome) as store:  # every task has its row, failed or not
        assert len(store.rows(thread_id=thread_id)) == len(WORKERS) * len(questions)
    # threads names the outcome: trial 28, finding 9 saw "failed" for a partial run
    listed = json.loads(run_cli("threads", "--data-dir", base / outcome, "--json").stdout)
    assert [t["status"] for t in listed] == [
        {"ok": "finished", "partial": "partial", "failed": "failed"}[outcome]], listed


def test_inspect_shows_why_each_failed_task_failed(outcome_runs):
    # ``inspect --json`` listed the error rows without their error
    base, _ = outcome_runs
    thread_id = default_thread_id(SMALL_TOPIC, AS_OF)
    proc = run_cli("inspect", thread_id, "--data-dir", base / "partial", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)["rows"]
    failed = [r for r in rows if r["status"] == "error"]
    assert failed and all(r["error"] for r in failed)
    assert all(r["error"] is None for r in rows if r["status"] == "ok")
    values = json.loads(proc.stdout)["values"]  # the final state's other channels
    assert values["outcome"] == "partial" and values["topic"] == SMALL_TOPIC
    assert len(values["failed_tasks"]) == len(failed) and "envelopes" not in values
