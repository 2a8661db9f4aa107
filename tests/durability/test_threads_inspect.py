"""``threads`` and ``inspect`` tell the durability story: a killed run is listed as unfinished
(a live one as running), then finished after resume; ``inspect --json`` shows the checkpoint
history with envelope and persisted counts, and the rows with how often persist wrote them;
``inspect --report`` prints the report from the results database once there is one (exit 2
before). On PostgreSQL too, where both read through ``PostgresSaver``'s API."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.durability._helpers import (
    AS_OF,
    EXPECTED_TASKS,
    SIGKILLED,
    TOPIC,
    Place,
    as_place,
    describe,
    run_app,
    thread_id_of,
)
from tests.expected import sub_questions, worker_names

WORKERS = set(worker_names())


def _threads(data_dir: Place | Path) -> dict[str, dict]:
    proc = run_app("threads", *as_place(data_dir).args, "--json")
    assert proc.returncode == 0, describe(proc)
    return {t["thread_id"]: t for t in json.loads(proc.stdout)}


def _inspect(data_dir: Place | Path, thread_id: str, json_out: bool = True):
    return run_app("inspect", thread_id, *as_place(data_dir).args,
                   *(["--json"] if json_out else []))


def _run_args(data_dir: Place | Path, corpus: Path, mode: str) -> list[str]:
    return [*as_place(data_dir).args, "--corpus", str(corpus), "--model", "offline",
            "--durability", mode, "--max-concurrency", "2"]


def test_threads_and_inspect_across_a_crash_and_resume(durability_corpus: Path,
                                                        place: Callable[[str], Place]) -> None:
    data_dir, thread_id = place("data"), thread_id_of()
    args = _run_args(data_dir, durability_corpus, "sync")
    crashed = run_app("research", TOPIC, "--as-of", AS_OF, *args, "--crash-at", "map:5")
    assert crashed.returncode in SIGKILLED, describe(crashed)

    listed = _threads(data_dir)[thread_id]
    assert listed["status"] == "unfinished"
    assert listed["topic"] == TOPIC and listed["as_of"] == AS_OF
    assert listed["last_step"] == 2  # the checkpoint after `dispatch`, which fanned out
    assert set(listed["next"]) <= WORKERS and listed["next"]
    # killed is told from running (issue 21): a live process holding the thread's lock (this
    # test plays the runner; on PostgreSQL the killed run's lease is still unexpired) shows
    # ``running``, read without taking the lock
    from app.storage import open_storage

    with open_storage(data_dir.data_dir, data_dir.database_url).thread_lock(thread_id):
        assert _threads(data_dir)[thread_id]["status"] == "running"
        assert json.loads(_inspect(data_dir, thread_id).stdout)["run_status"] == "running"
    assert _threads(data_dir)[thread_id]["status"] == "unfinished"

    proc = _inspect(data_dir, thread_id)
    assert proc.returncode == 0, describe(proc)
    data = json.loads(proc.stdout)
    assert set(data["next"]) <= WORKERS and data["next"]
    assert [c["step"] for c in data["checkpoints"]] == [-1, 0, 1, 2]
    assert data["rows"] == []  # persist never ran
    # of the tasks next, inspect tells those saved before the kill: what resume restores
    # (trial 10: all were listed as next, the saved ones too)
    saved = data["next_saved"]  # which writes are saved before the kill is a race: 0 is rare
    assert 0 <= saved < len(data["next"]) == EXPECTED_TASKS, data
    shown = _inspect(data_dir, thread_id, json_out=False).stdout
    told = f"{saved} finished, " if saved else ""
    assert f"({EXPECTED_TASKS} tasks: {told}" in shown, shown
    assert f"{EXPECTED_TASKS - saved} to run)" in shown, shown

    resumed = run_app("resume", thread_id, *args)
    assert resumed.returncode == 0, describe(resumed)
    assert f"resuming thread {thread_id} from step 2" in resumed.stdout
    assert f"({saved} finished result(s) restored from its checkpoint)" in resumed.stdout

    listed = _threads(data_dir)[thread_id]
    assert listed["status"] == "finished" and listed["next"] == []
    assert listed["last_step"] == 6  # plan, dispatch, the map step, route, persist, report

    proc = _inspect(data_dir, thread_id)
    assert proc.returncode == 0, describe(proc)
    data = json.loads(proc.stdout)
    assert data["thread_id"] == thread_id and data["next"] == []
    checkpoints = data["checkpoints"]
    assert [c["step"] for c in checkpoints] == list(range(-1, 7))  # one history, no restart
    for c in checkpoints:
        assert c["unique_ids"] == c["envelopes"], c  # never a duplicate in any checkpoint
        assert c["envelopes"] in (0, EXPECTED_TASKS)
    after_map = next(c for c in checkpoints if c["envelopes"])
    assert after_map["ran"] == {w: len(sub_questions(TOPIC)) for w in WORKERS}
    assert after_map["persisted"] == 0 and after_map["with_payload"] == EXPECTED_TASKS
    last = checkpoints[-1]
    assert last["ran"] == {"report": 1}
    assert last["persisted"] == EXPECTED_TASKS and last["with_payload"] == 0
    assert next(c for c in checkpoints if c["ran"] == {"persist": 1})["persisted"] == (
        EXPECTED_TASKS)
    rows = data["rows"]
    assert len(rows) == len({r["envelope_id"] for r in rows}) == EXPECTED_TASKS
    assert all(r["write_count"] == 1 and r["status"] == "ok" for r in rows)


def test_inspect_report_prints_the_report_from_the_database(durability_corpus: Path,
                                                            place: Callable[[str], Place]) -> None:
    """``inspect THREAD_ID --report``: exit 2 and one line while the thread has no report;
    after the run, the report's text from the results database, even with the report file
    deleted (another replica wrote it, on its own disk)."""
    data_dir, thread_id = place("data"), thread_id_of()
    args = _run_args(data_dir, durability_corpus, "sync")
    crashed = run_app("research", TOPIC, "--as-of", AS_OF, *args, "--crash-at", "map:5")
    assert crashed.returncode in SIGKILLED, describe(crashed)
    none_yet = run_app("inspect", thread_id, *data_dir.args, "--report")
    assert none_yet.returncode == 2 and none_yet.stdout == "", describe(none_yet)
    assert len(none_yet.stderr.strip().splitlines()) == 1, describe(none_yet)
    assert "holds no report" in none_yet.stderr, describe(none_yet)
    hint = none_yet.stderr.split("continue it with ", 1)[1].strip()  # as pasted, it works
    assert hint.startswith(f"uv run python -m app resume {thread_id}"), describe(none_yet)

    resumed = run_app("resume", thread_id, *args)
    assert resumed.returncode == 0, describe(resumed)
    values = json.loads(_inspect(data_dir, thread_id).stdout)["values"]
    report = Path(values["report_path"])
    text = report.read_text(encoding="utf-8")
    assert values["report"] == text and TOPIC in text  # the final state carries it too
    report.unlink()
    printed = run_app("inspect", thread_id, *data_dir.args, "--report")
    assert printed.returncode == 0, describe(printed)
    assert printed.stdout == text


def test_threads_and_inspect_after_an_exit_mode_crash(durability_corpus: Path,
                                                       tmp_path: Path) -> None:
    """durability="exit" plus a hard kill leaves no checkpoint: ``threads`` still lists the run
    (from the results DB) as unfinished with no step, ``inspect`` has no history, and
    ``resume`` runs it again from the start."""
    data_dir, thread_id = tmp_path / "data", thread_id_of()
    args = _run_args(data_dir, durability_corpus, "exit")
    crashed = run_app("research", TOPIC, "--as-of", AS_OF, *args, "--crash-at", "map:5")
    assert crashed.returncode in SIGKILLED, describe(crashed)

    listed = _threads(data_dir)[thread_id]
    assert listed["status"] == "unfinished"
    assert listed["last_step"] is None and listed["next"] == []

    proc = _inspect(data_dir, thread_id)
    if proc.returncode == 0:
        assert json.loads(proc.stdout)["checkpoints"] == []
    else:  # nothing in either database for this thread: "no thread"
        assert proc.returncode == 2 and "no thread" in proc.stderr, describe(proc)

    resumed = run_app("resume", thread_id, *args)
    assert resumed.returncode == 0, describe(resumed)
    assert _threads(data_dir)[thread_id]["status"] == "finished"


def test_inspect_names_the_rows_missing_from_the_results_database(durability_corpus: Path,
                                                                   tmp_path: Path) -> None:
    # trial 66, F3: rows deleted from the database, inspect said "8 rows, one per envelope"
    # beside a checkpoint of 12 persisted envelopes, and named none missing
    import sqlite3

    data_dir, thread_id = tmp_path / "data", thread_id_of()
    done = run_app("research", TOPIC, "--as-of", AS_OF, *_run_args(data_dir, durability_corpus,
                                                                   "sync"))
    assert done.returncode == 0, describe(done)
    before = json.loads(_inspect(data_dir, thread_id).stdout)
    assert before["missing_rows"] == []
    gone = before["rows"][0]["envelope_id"]
    with sqlite3.connect(data_dir / "results.sqlite") as conn:
        conn.execute("DELETE FROM results WHERE envelope_id = ?", (gone,))
    after = _inspect(data_dir, thread_id)
    assert json.loads(after.stdout)["missing_rows"] == [gone]
    shown = _inspect(data_dir, thread_id, json_out=False).stdout
    assert f"missing from the results database: 1 envelope(s) the last checkpoint marks " \
           f"persisted ({gone})" in " ".join(shown.split()), shown
