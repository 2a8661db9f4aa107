"""Worker failures: transient errors retried by the RetryPolicy, and a worker that fails for
good (then recovers in a later round). One envelope and one DB row per task, whatever happens."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from tests.durability._helpers import (
    AS_OF,
    EXPECTED_TASKS,
    TOPIC,
    assert_completed_thread,
    db_rows,
    describe,
    expected_envelope_ids,
    id_counts,
    read_run_log,
    run_app,
    thread_id_of,
)

FAIL_RATE = 0.5
SEED = 14
"""With this seed every task of TOPIC succeeds within its 3 attempts (some on the 2nd, some on
the 3rd): the run completes. (Whether an attempt fails depends only on seed, envelope id,
round and attempt, see ``app.faults.FaultPlan.injects_failure``; the test checks that premise
first.)"""
MAX_ATTEMPTS = 3  # the app's default RESEARCH_MAX_ATTEMPTS


def _injected_attempts() -> dict[str, int]:
    """For each envelope id of TOPIC: the attempt on which ``--fail-rate FAIL_RATE --seed SEED``
    first lets the task succeed in round 1 (``MAX_ATTEMPTS + 1``: it never does), asked of the
    app's own ``FaultPlan``."""
    from app.faults import FaultPlan
    from app.plan import offline_plan
    from state import make_envelope_id
    from workers.registry import WORKERS

    plan = FaultPlan(fail_rate=FAIL_RATE, seed=SEED)
    out = {}
    for question in offline_plan(TOPIC):
        for worker in WORKERS:
            task = {"worker": worker.name, "sub_question": question, "topic": TOPIC,
                    "as_of": AS_OF, "round": 1}
            attempt = 1
            while attempt <= MAX_ATTEMPTS and plan.injects_failure(task, attempt):
                attempt += 1
            out[make_envelope_id(worker.name, question, AS_OF)] = attempt
    return out


def _common(data_dir: Path, corpus: Path, run_log: Path) -> list[str]:
    return ["--as-of", AS_OF, "--data-dir", str(data_dir), "--corpus", str(corpus),
            "--run-log", str(run_log), "--model", "offline", "--durability", "sync"]


def test_transient_failures_are_retried_into_one_row_each(durability_corpus: Path,
                                                          tmp_path: Path) -> None:
    ids = expected_envelope_ids()
    expected_attempts = _injected_attempts()
    assert set(expected_attempts) == ids
    assert max(expected_attempts.values()) <= MAX_ATTEMPTS, (
        f"seed {SEED} no longer lets every task through; pick another one")
    assert max(expected_attempts.values()) > 1, f"seed {SEED} injects no failure"

    data_dir, run_log = tmp_path / "data", tmp_path / "run.log"
    proc = run_app("research", TOPIC, *_common(data_dir, durability_corpus, run_log),
                   "--fail-rate", str(FAIL_RATE), "--seed", str(SEED), "--json")
    assert proc.returncode == 0, describe(proc)
    summary = json.loads(proc.stdout)
    assert summary["ok"] and summary["duplicates"] == 0 and not summary["errors"]

    _, rows = assert_completed_thread(data_dir, thread_id_of())
    assert len(rows) == EXPECTED_TASKS
    assert all(r["status"] == "ok" and r["round"] == 1 and r["write_count"] == 1 for r in rows)
    # Rows written after retries: the DB records the attempt that produced each result.
    assert {r["envelope_id"]: r["attempts"] for r in rows} == expected_attempts
    assert any(r["attempts"] > 1 for r in rows)
    # A failed attempt leaves no writes: one finished attempt per task in the run log.
    lines = read_run_log(run_log)
    assert id_counts(lines) == {eid: 1 for eid in ids}
    assert {line.envelope_id: line.attempt for line in lines} == expected_attempts


def test_a_worker_that_always_fails_then_recovers_in_round_two(durability_corpus: Path,
                                                               tmp_path: Path) -> None:
    thread_id = thread_id_of()
    data_dir, run_log = tmp_path / "data", tmp_path / "run.log"
    common = _common(data_dir, durability_corpus, run_log)
    critic_ids = {eid for eid in expected_envelope_ids() if eid.startswith("critic:")}
    assert len(critic_ids) == EXPECTED_TASKS // 3

    # ---- critic fails for good (every round) ------------------------------------------------
    proc = run_app("research", TOPIC, *common, "--fail-worker", "critic")
    assert proc.returncode == 1, describe(proc)
    _, rows = assert_completed_thread(data_dir, thread_id)
    by_worker = {w: [r for r in rows if r["worker"] == w]
                 for w in ("docs_search", "analyst", "critic")}
    assert all(len(v) == EXPECTED_TASKS // 3 for v in by_worker.values())
    assert all(r["status"] == "ok" and r["error"] is None and r["structured"]
               for r in by_worker["docs_search"] + by_worker["analyst"])
    for r in by_worker["critic"]:
        assert r["status"] == "error" and "critic" in r["error"] and r["structured"] is None
        assert r["round"] == 2  # sent again in round 2, failed again
    assert {r["envelope_id"] for r in by_worker["critic"]} == critic_ids
    # The summary says which failed, and only those.
    failed = re.findall(r"^\s*failed: (\w+) on ", proc.stdout, re.M)
    assert failed == ["critic"] * len(critic_ids), proc.stdout
    assert "errors: 4" in proc.stdout
    # The report's Failures section names the worker and each sub-question.
    report = Path(next(r for r in proc.stdout.splitlines() if "report:" in r).split(
        "report:", 1)[1].strip()).read_text(encoding="utf-8")
    assert "## Failures" in report
    failures = report.split("## Failures", 1)[1].split("\n## ", 1)[0]
    assert failures.count("`critic`") == len(critic_ids), failures
    assert "`analyst`" not in failures and "`docs_search`" not in failures
    for r in by_worker["critic"]:
        assert r["task_key"] in failures
    # Round 1 and round 2 each ran every critic task once (and logged its error envelope).
    counts = id_counts(read_run_log(run_log))
    assert {eid: counts[eid] for eid in critic_ids} == {eid: 2 for eid in critic_ids}
    before = {r["envelope_id"]: r for r in rows}

    # ---- the same thread again: critic fails in round 1 only, and recovers in round 2 --------
    proc = run_app("research", TOPIC, *common, "--fail-worker", "critic:1", "--rounds", "2",
                   "--json")
    assert proc.returncode == 0, describe(proc)
    summary = json.loads(proc.stdout)
    assert summary["ok"] and not summary["errors"] and summary["duplicates"] == 0
    _, rows = assert_completed_thread(data_dir, thread_id)
    after = {r["envelope_id"]: r for r in rows}
    assert after.keys() == before.keys() and len(db_rows(data_dir)) == EXPECTED_TASKS
    for eid in critic_ids:
        row = after[eid]
        assert row["status"] == "ok" and row["error"] is None and row["structured"]
        assert row["round"] == 2
    assert all(r["write_count"] == 2 for r in rows)  # updated in place, not added
