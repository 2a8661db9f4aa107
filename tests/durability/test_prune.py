"""``prune`` bounds the checkpoint history without costing a rerun or a resume.

Each rerun of a thread adds its checkpoints and writes (the map step's writes still hold the
payloads persist dropped from state). ``prune`` keeps the latest checkpoint of each finished
thread, never touches an unfinished (killed) thread or one another process is running, frees the
bytes it says it frees, and afterwards the pruned thread reruns and the killed one resumes with
one row per envelope."""

from __future__ import annotations

import json
from pathlib import Path

from tests.durability._helpers import (
    AS_OF,
    CHECKPOINTS_DB,
    EXPECTED_TASKS,
    OTHER_TOPIC,
    SIGKILLED,
    TOPIC,
    assert_completed_thread,
    checkpoint_count,
    db_rows,
    describe,
    latest_checkpoint,
    run_app,
    thread_id_of,
)


def _args(data_dir: Path, corpus: Path) -> list[str]:
    return ["--as-of", AS_OF, "--data-dir", str(data_dir), "--corpus", str(corpus),
            "--model", "offline", "--durability", "sync", "--max-concurrency", "2", "--quiet"]


def _prune(data_dir: Path, *extra: str) -> dict:
    proc = run_app("prune", "--data-dir", str(data_dir), "--json", *extra)
    assert proc.returncode == 0, describe(proc)
    return json.loads(proc.stdout)


def _db_size(data_dir: Path) -> int:
    path = data_dir / CHECKPOINTS_DB
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


def test_prune_keeps_what_reruns_and_resumes_need(durability_corpus: Path, tmp_path: Path
                                                  ) -> None:
    data = tmp_path / "data"
    done, killed = thread_id_of(TOPIC), thread_id_of(OTHER_TOPIC)
    for _ in range(2):  # a run and a rerun: two runs' history on one thread
        proc = run_app("research", TOPIC, *_args(data, durability_corpus))
        assert proc.returncode == 0, describe(proc)
    crashed = run_app("research", OTHER_TOPIC, *_args(data, durability_corpus),
                      "--crash-at", "map:4")
    assert crashed.returncode in SIGKILLED, describe(crashed)
    grown = checkpoint_count(data, done)
    assert grown >= 12, grown  # about seven per run
    killed_before = checkpoint_count(data, killed)
    killed_latest = latest_checkpoint(data, killed)
    assert killed_latest.pending_writes  # finished workers' results wait in pending writes

    from app.storage import open_storage

    with open_storage(data).thread_lock(done):  # as a run of it in another process would
        busy = _prune(data)
    assert {t["thread_id"]: t["action"] for t in busy["threads"]} == {
        done: "kept: busy", killed: "kept: unfinished"}
    assert busy["checkpoints_removed"] == 0 and checkpoint_count(data, done) == grown

    dry = _prune(data, "--dry-run")
    assert checkpoint_count(data, done) == grown, "a dry run must change nothing"
    by_id = {t["thread_id"]: t for t in dry["threads"]}
    assert by_id[done]["action"] == "would prune"
    assert by_id[done]["checkpoints_removed"] == grown - 1
    assert by_id[killed]["action"] == "kept: unfinished"

    size_before = _db_size(data)
    result = _prune(data)
    by_id = {t["thread_id"]: t for t in result["threads"]}
    assert by_id[done]["action"] == "pruned"
    assert by_id[done]["checkpoints_removed"] == grown - 1 and by_id[done]["writes_removed"] > 0
    assert by_id[killed] == dry["threads"][[t["thread_id"] for t in dry["threads"]].index(
        killed)]
    assert checkpoint_count(data, done) == 1
    assert checkpoint_count(data, killed) == killed_before  # untouched
    after = latest_checkpoint(data, killed)
    assert after.config == killed_latest.config
    assert sorted(map(repr, after.pending_writes)) == sorted(map(repr,
                                                                 killed_latest.pending_writes))
    assert result["bytes_freed"] > 0 and result["bytes_after"] == _db_size(data)
    assert _db_size(data) < size_before  # VACUUM gave the pages back

    text = run_app("prune", "--data-dir", str(data))  # nothing left: says so, exits 0
    assert text.returncode == 0, describe(text)
    assert f"kept    {done}  (nothing to remove" in text.stdout
    assert f"resume it first: python -m app resume {killed}" in text.stdout

    rerun = run_app("research", TOPIC, *_args(data, durability_corpus))
    assert rerun.returncode == 0, describe(rerun)
    assert_completed_thread(data, done)
    assert all(r["write_count"] == 3 for r in db_rows(data, done))  # updated in place, 3 runs

    resumed = run_app("resume", killed, *_args(data, durability_corpus)[2:])
    assert resumed.returncode == 0, describe(resumed)
    assert_completed_thread(data, killed)
    assert len(db_rows(data, killed)) == EXPECTED_TASKS


def test_prune_of_an_unknown_thread_is_bad_input(tmp_path: Path) -> None:
    data = tmp_path / "data"
    proc = run_app("prune", "--data-dir", str(data), "--thread-id", "nope")
    assert proc.returncode == 2, describe(proc)
    assert proc.stderr.startswith("error: ") and len(proc.stderr.strip().splitlines()) == 1
    assert "nope" in proc.stderr
    assert not data.exists(), "bad input must write nothing"
