"""The same topic run again updates its rows in place; two runs on one data dir at the same
time (two processes, two topics) neither block nor mix each other's rows."""

from __future__ import annotations

import json
from pathlib import Path

from tests.durability._helpers import (
    AS_OF,
    EXPECTED_TASKS,
    OTHER_TOPIC,
    TOPIC,
    assert_completed_thread,
    db_rows,
    db_run,
    describe,
    expected_envelope_ids,
    popen_app,
    run_app,
    thread_id_of,
)


def _args(topic: str, data_dir: Path, corpus: Path) -> list[str]:
    return ["research", topic, "--as-of", AS_OF, "--data-dir", str(data_dir), "--corpus",
            str(corpus), "--model", "offline", "--json"]


def test_same_topic_twice_updates_rows_in_place(durability_corpus: Path, tmp_path: Path) -> None:
    data_dir, thread_id = tmp_path / "data", thread_id_of()
    first = run_app(*_args(TOPIC, data_dir, durability_corpus))
    assert first.returncode == 0, describe(first)
    _, rows1 = assert_completed_thread(data_dir, thread_id)
    assert all(r["write_count"] == 1 for r in rows1)

    second = run_app(*_args(TOPIC, data_dir, durability_corpus))
    assert second.returncode == 0, describe(second)
    assert "resuming" not in second.stderr  # a finished thread is run again, not resumed
    summary = json.loads(second.stdout)
    assert summary["thread_id"] == thread_id and summary["duplicates"] == 0
    _, rows2 = assert_completed_thread(data_dir, thread_id)

    assert len(rows2) == len(rows1) == len(db_rows(data_dir)) == EXPECTED_TASKS
    before = {r["envelope_id"]: r for r in rows1}
    for row in rows2:
        old = before[row["envelope_id"]]
        assert row["write_count"] == 2
        assert row["first_written_at"] == old["first_written_at"]
        assert row["last_written_at"] > old["last_written_at"]


CONCURRENT_FAULTS = ["--fail-rate", "0.5", "--seed", "12", "--max-concurrency", "2"]
"""Transient failures with this seed make some task of each topic succeed only on its third
attempt (after about 1.5 s of retry back-off) and none fail for good: each run lasts long enough
for the two to overlap for sure, and both write retried rows at the same time."""


def test_two_topics_at_once_on_one_data_dir(durability_corpus: Path, tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    procs = {topic: popen_app(*_args(topic, data_dir, durability_corpus), *CONCURRENT_FAULTS)
             for topic in (TOPIC, OTHER_TOPIC)}
    outputs = {topic: proc.communicate(timeout=180) for topic, proc in procs.items()}

    for topic, proc in procs.items():
        stdout, stderr = outputs[topic]
        assert proc.returncode == 0, f"{topic}: exit {proc.returncode}\n{stdout}\n{stderr}"
        assert "database is locked" not in stderr.lower()
        assert "Traceback" not in stderr
        summary = json.loads(stdout)
        assert summary["ok"] and summary["duplicates"] == 0
        assert summary["db_rows"] == EXPECTED_TASKS

    total = 0
    for topic in (TOPIC, OTHER_TOPIC):
        thread_id = thread_id_of(topic)
        _, rows = assert_completed_thread(data_dir, thread_id)
        assert {r["envelope_id"] for r in rows} == expected_envelope_ids(topic)
        assert all(r["topic"] == topic and r["write_count"] == 1 for r in rows)
        assert db_run(data_dir, thread_id)["status"] == "finished"
        total += len(rows)
    assert total == 2 * EXPECTED_TASKS == len(db_rows(data_dir))
    assert any(r["attempts"] > 1 for r in db_rows(data_dir))
    # The two runs really ran at the same time.
    a, b = (db_run(data_dir, thread_id_of(t)) for t in (TOPIC, OTHER_TOPIC))
    assert a["started_at"] < b["finished_at"] and b["started_at"] < a["finished_at"], (a, b)
