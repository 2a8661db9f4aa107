"""SIGKILL at every crash point, under every durability mode, then resume: nothing lost, nothing
duplicated, finished workers not run again where the mode saved them (docs/architecture.md,
"The durability promises").

Each case runs the real CLI twice in subprocesses: once with ``--crash-at`` (the process kills
itself with SIGKILL), then again to resume, either with the same ``research`` command or with
``resume THREAD_ID``. ``--run-log`` records one line per finished worker attempt across both
processes, which is how "was this worker run again?" is answered.

What each durability mode guarantees after a hard kill:

* ``sync``: every checkpoint is saved before the next step starts, and the pending writes of
  finished tasks are saved as they finish (in the background: the last one or two before the kill
  may be lost, and those workers run again). A task whose writes were saved is never run again.
* ``async``: checkpoints are saved in the background, so the kill may lose the latest ones too;
  still, whatever pending writes are attached to the latest saved checkpoint are not re-run.
* ``exit``: nothing is saved until the graph exits: a hard kill leaves no checkpoint at all and
  the run is computed again from the start; the results DB upserts, so still one row per id.

Every crash point and mode runs on the SQLite files; on PostgreSQL (``PostgresSaver`` and the
results tables, on a server the tests start) with one way of resuming, which keeps the suite's
time in check: the two ways differ in the CLI, not in the storage. For the same reason the
plain ``research`` command continues the ``sync`` and ``exit`` crashes (a thread with every
checkpoint, one with none), not the ``async`` ones, whose storage ``resume`` covers.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.durability._helpers import (
    AS_OF,
    EXPECTED_TASKS,
    SIGKILLED,
    TOPIC,
    Place,
    assert_completed_thread,
    checkpoint_count,
    checkpoint_envelopes,
    db_rows,
    delete_checkpoints_after_step,
    describe,
    expected_envelope_ids,
    id_counts,
    latest_checkpoint,
    pending_envelope_ids,
    read_run_log,
    run_app,
    thread_id_of,
)

MAP_K = EXPECTED_TASKS - 3
"""``map:K`` with three tasks left and two workers at a time: K (sometimes K+1) of the tasks have
finished at the kill, the first ones have had time to save their pending writes, and the last
ones are still to come, so the kill is reached even if the plan's size changes."""
CRASH_POINTS = [f"map:{MAP_K}", "persist-commit", "report"]
MODES = ["sync", "async", "exit"]
RESUME_WAYS = ["research", "resume"]
CASES = [
    *(pytest.param(crash_at, mode, way, "sqlite", id=f"{crash_at}-{mode}-{way}-sqlite")
      for crash_at in CRASH_POINTS for mode in MODES for way in RESUME_WAYS
      if way == "resume" or mode != "async"),
    *(pytest.param(crash_at, mode, "resume", "postgres", id=f"{crash_at}-{mode}-resume-postgres")
      for crash_at in CRASH_POINTS for mode in MODES),
]
MAP_CRASH_TRIES = 3
"""How often a ``map`` crash is repeated (fresh data dir) until some finished task's pending
writes were saved: which ones are saved before the kill is a race (see the module docstring),
and a case where none was saved would prove nothing about "not re-run"."""


def _common(where: Place, corpus: Path, mode: str, run_log: Path) -> list[str]:
    return [*where.args, "--corpus", str(corpus), "--durability", mode,
            "--max-concurrency", "2", "--run-log", str(run_log), "--model", "offline"]


def _crash(place: Callable[[str], Place], tmp_path: Path, corpus: Path, crash_at: str, mode: str,
           attempt: int):
    where, run_log = place(f"data{attempt}"), tmp_path / f"run{attempt}.log"
    proc = run_app("research", TOPIC, "--as-of", AS_OF,
                   *_common(where, corpus, mode, run_log), "--crash-at", crash_at)
    return where, run_log, proc


@pytest.mark.parametrize(("crash_at", "mode", "way", "place"), CASES, indirect=["place"])
def test_crash_then_resume(crash_at: str, mode: str, way: str, place: Callable[[str], Place],
                           durability_corpus: Path, tmp_path: Path) -> None:
    thread_id = thread_id_of()
    all_ids = expected_envelope_ids()
    assert len(all_ids) == EXPECTED_TASKS

    # ---- 1. crash -------------------------------------------------------------------------
    for attempt in range(MAP_CRASH_TRIES):
        where, run_log, proc = _crash(place, tmp_path, durability_corpus, crash_at, mode,
                                         attempt)
        assert proc.returncode in SIGKILLED, describe(proc)
        assert proc.stdout.splitlines()[0] == f"thread {thread_id}", describe(proc)
        tup = latest_checkpoint(where, thread_id)
        saved = pending_envelope_ids(tup)
        if not crash_at.startswith("map") or mode == "exit" or saved:
            break
    before = read_run_log(run_log)
    finished_before = set(id_counts(before))
    assert all(line.status == "ok" for line in before)
    assert all(line.pid == proc.pid for line in before)
    assert finished_before <= all_ids

    if mode == "exit":
        # A hard kill under durability="exit" leaves no checkpoint at all.
        assert tup is None and checkpoint_count(where, thread_id) == 0

    if crash_at.startswith("map"):
        # Some but not all of the tasks finished; nothing reached the results DB.
        assert MAP_K <= len(before) < EXPECTED_TASKS, [line.envelope_id for line in before]
        assert len(finished_before) == len(before), "a task finished twice before the crash"
        assert db_rows(where, thread_id) == []
        assert len(saved) == len(set(saved))
        assert set(saved) <= finished_before, "saved writes of a task that never finished"
        if mode == "sync":
            # The checkpoint after `dispatch` (the fan-out) was saved before any worker started.
            assert tup.metadata["step"] == 2
        if mode in ("sync", "async"):
            assert saved, (f"no finished task's pending writes were saved in {MAP_CRASH_TRIES} "
                           f"crashes ({mode}): finished workers are lost on a hard kill")
    else:
        assert not list((where.data_dir / "reports").glob("*.md")), (
            "a report before `report` ran")
        # The map step is over: every task finished exactly once before the crash.
        assert id_counts(before) == {eid: 1 for eid in all_ids}
        rows = db_rows(where, thread_id)
        assert sorted(r["envelope_id"] for r in rows) == sorted(all_ids)
        assert all(r["write_count"] == 1 for r in rows)
        if mode == "sync":
            envelopes = checkpoint_envelopes(tup)
            if crash_at == "persist-commit":
                # The DB has the rows; the checkpoint does not know: it still holds payloads.
                assert tup.checkpoint["channel_values"].get("report_path") is None
                assert len(envelopes) == EXPECTED_TASKS
                assert not any(e.get("persisted") for e in envelopes)
                assert all(e.get("structured") is not None for e in envelopes)
            else:  # report: persist's checkpoint was saved before `report` started
                assert len(envelopes) == EXPECTED_TASKS
                assert all(e.get("persisted") and e.get("structured") is None for e in envelopes)
        if mode == "async" and crash_at == "persist-commit":
            # Whatever was saved, no checkpoint can know that persist committed.
            assert not any(e.get("persisted") for e in checkpoint_envelopes(tup))

    # ---- 2. resume ------------------------------------------------------------------------
    common = _common(where, durability_corpus, mode, run_log)
    if way == "research":
        proc2 = run_app("research", TOPIC, "--as-of", AS_OF, *common, "--json")
    else:
        proc2 = run_app("resume", thread_id, *common, "--json")
    assert proc2.returncode == 0, describe(proc2)
    if tup is not None:
        assert f"resuming thread {thread_id} from step" in proc2.stderr, describe(proc2)
    if mode == "sync" and crash_at == "persist-commit":  # after the map: no result to restore
        assert f"resuming thread {thread_id} from step 4 (at persist)" in proc2.stderr, \
            describe(proc2)
    assert "Traceback" not in proc2.stderr

    import json

    summary = json.loads(proc2.stdout)
    assert summary["ok"] is True
    assert summary["duplicates"] == 0
    assert summary["envelopes"] == summary["expected"] == summary["db_rows"] == EXPECTED_TASKS
    assert summary["persisted"] == EXPECTED_TASKS

    # ---- 3. the end state -----------------------------------------------------------------
    envelopes, rows = assert_completed_thread(where, thread_id)
    assert {e["envelope_id"] for e in envelopes} == all_ids
    assert all(r["status"] == "ok" and r["round"] == 1 and r["attempts"] == 1 for r in rows)

    after = read_run_log(run_log)[len(before):]
    assert all(line.pid == proc2.pid for line in after)
    rerun = id_counts(after)
    assert all(n == 1 for n in rerun.values()), f"a task ran twice after resume: {rerun}"
    # Every task finished at least once, across the two processes: none lost.
    assert finished_before | set(rerun) == all_ids

    if crash_at.startswith("map"):
        if mode == "exit":
            assert set(rerun) == all_ids, "exit mode: the rerun recomputes every task"
        else:
            # Finished tasks whose pending writes were saved are not run again: each appears
            # exactly once in the run log, from the crashed process. Every other task runs.
            counts = id_counts(read_run_log(run_log))
            assert {eid: counts[eid] for eid in saved} == {eid: 1 for eid in saved}
            assert set(rerun) == all_ids - set(saved)
        expected_writes = {1}
    elif mode == "exit":
        assert set(rerun) == all_ids, "exit mode: the rerun recomputes every task"
        expected_writes = {2}  # persist had committed before the kill; it upserts again
    elif mode == "sync":
        assert rerun == {}, "sync: the map step was checkpointed, no worker may run again"
        # persist-commit: persist runs again and upserts (write_count 2); report: it does not.
        expected_writes = {2} if crash_at == "persist-commit" else {1}
    else:  # async: the latest checkpoints may be lost, so workers may run again
        expected_writes = {2} if crash_at == "persist-commit" else {1, 2}

    write_counts = {r["write_count"] for r in rows}
    assert len(write_counts) == 1 and write_counts <= expected_writes, write_counts
    for r in rows:
        if r["write_count"] == 2:
            assert r["last_written_at"] > r["first_written_at"]
        else:
            assert r["last_written_at"] == r["first_written_at"]


@pytest.mark.parametrize(("way", "place"), [("research", "sqlite"), ("resume", "sqlite"),
                                           ("resume", "postgres")], indirect=["place"])
def test_lost_step_checkpoint_after_every_task_finished_resumes(
    way: str, place: Callable[[str], Place], durability_corpus: Path, tmp_path: Path
) -> None:
    """All the workers finished and their pending writes were saved, but the checkpoint that
    closes their superstep was lost (under ``async`` a kill can lose the latest checkpoints while
    the writes of the tasks after them are saved). LangGraph then reports ``next == ()`` for the
    thread although it never finished. The run must resume from the saved writes: no worker runs
    again, nothing is duplicated; ``resume`` must not say there is nothing to resume.

    The lost checkpoints are simulated deterministically by deleting every checkpoint after the
    one `dispatch` produced from a completed run (the writes table is left as it was)."""
    thread_id = thread_id_of()
    where, run_log = place("data"), tmp_path / "run.log"
    common = _common(where, durability_corpus, "sync", run_log)
    first = run_app("research", TOPIC, "--as-of", AS_OF, *common)
    assert first.returncode == 0, describe(first)
    assert len(read_run_log(run_log)) == EXPECTED_TASKS

    deleted = delete_checkpoints_after_step(where, thread_id, 2)
    assert deleted == 4  # after the map step, route, persist and report
    tup = latest_checkpoint(where, thread_id)
    assert tup.metadata["step"] == 2
    assert sorted(pending_envelope_ids(tup)) == sorted(expected_envelope_ids())

    if way == "research":
        proc = run_app("research", TOPIC, "--as-of", AS_OF, *common, "--json")
    else:
        proc = run_app("resume", thread_id, *common, "--json")
    assert proc.returncode == 0, describe(proc)
    assert f"resuming thread {thread_id} from step 2" in proc.stderr, describe(proc)
    assert len(read_run_log(run_log)) == EXPECTED_TASKS, "finished workers ran again"
    _, rows = assert_completed_thread(where, thread_id)
    # The rows were written by the first run's persist; the resumed persist upserted them.
    assert {r["write_count"] for r in rows} == {2}
