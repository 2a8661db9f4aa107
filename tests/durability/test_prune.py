"""``prune`` bounds the checkpoint history without costing a rerun or a resume, on both backends.

Each rerun of a thread adds its checkpoints and writes (the map step's writes still hold the
payloads persist dropped from state). ``prune`` keeps the latest checkpoint of each finished
thread, never touches an unfinished (killed) thread or one another process is running, removes
the rows it says it removes, and afterwards the pruned thread reruns and the killed one resumes
with one row per envelope. On SQLite the file shrinks (``VACUUM``); on PostgreSQL the tables keep
the space for new rows, and the report says so instead of claiming bytes freed."""

from __future__ import annotations

import json
import shlex
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.cli_env import run_cli
from tests.durability._helpers import (
    AS_OF,
    CHECKPOINTS_DB,
    EXPECTED_TASKS,
    OTHER_TOPIC,
    SIGKILLED,
    TIMEOUT,
    TOPIC,
    Place,
    assert_completed_thread,
    checkpoint_count,
    db_rows,
    describe,
    latest_checkpoint,
    pg_query,
    run_app,
    thread_id_of,
)


def _args(where: Place, corpus: Path) -> list[str]:
    return ["--as-of", AS_OF, *where.args, "--corpus", str(corpus), "--model", "offline",
            "--durability", "sync", "--max-concurrency", "2", "--quiet"]


def _prune(where: Place, *extra: str) -> dict:
    proc = run_app("prune", *where.args, "--json", *extra)
    assert proc.returncode == 0, describe(proc)
    return json.loads(proc.stdout)


def _db_size(data_dir: Path) -> int:
    path = data_dir / CHECKPOINTS_DB
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


def _listed_checkpoints(where: Place, thread_id: str) -> int:
    """The thread's checkpoints, every namespace, as the backend's own checkpointer lists them
    (``SqliteSaver``/``PostgresSaver.list``): what ``inspect`` and a resume read."""
    config = {"configurable": {"thread_id": thread_id}}
    if where.database_url:
        from langgraph.checkpoint.postgres import PostgresSaver

        with PostgresSaver.from_conn_string(where.database_url) as saver:
            return len(list(saver.list(config)))
    from langgraph.checkpoint.sqlite import SqliteSaver

    conn = sqlite3.connect(where.data_dir / CHECKPOINTS_DB, check_same_thread=False)
    try:
        return len(list(SqliteSaver(conn).list(config)))
    finally:
        conn.close()


def _write_count(where: Place, thread_id: str) -> int:
    """The thread's rows in the saver's table of pending writes (``writes`` on SQLite,
    ``checkpoint_writes`` on PostgreSQL)."""
    if where.database_url:
        return pg_query(where.database_url, "SELECT COUNT(*) AS n FROM checkpoint_writes "
                         "WHERE thread_id = %s", (thread_id,))[0]["n"]
    with sqlite3.connect(where.data_dir / CHECKPOINTS_DB) as conn:
        return conn.execute("SELECT COUNT(*) FROM writes WHERE thread_id = ?",
                            (thread_id,)).fetchone()[0]


def _prune_text(where: Place) -> subprocess.CompletedProcess[str]:
    """``prune`` in text; on PostgreSQL the URL comes from ``RESEARCH_DATABASE_URL`` (the
    environment), as a deployment sets it, instead of ``--database-url``."""
    env = {"RESEARCH_DATABASE_URL": where.database_url} if where.database_url else None
    return run_cli("prune", "--data-dir", where.data_dir, env=env, timeout=TIMEOUT)


def test_prune_keeps_what_reruns_and_resumes_need(durability_corpus: Path,
                                                  place: Callable[[str], Place]) -> None:
    where = place("data")
    done, killed = thread_id_of(TOPIC), thread_id_of(OTHER_TOPIC)
    for _ in range(2):  # a run and a rerun: two runs' history on one thread
        proc = run_app("research", TOPIC, *_args(where, durability_corpus))
        assert proc.returncode == 0, describe(proc)
    # one worker at a time: the kill comes as the fifth starts, long after the first three
    # finished, so their pending writes are saved (map:K promises K results, not their saving)
    crashed = run_app("research", OTHER_TOPIC, *_args(where, durability_corpus),
                      "--crash-at", "map:4", "--max-concurrency", "1")
    assert crashed.returncode in SIGKILLED, describe(crashed)
    grown = _listed_checkpoints(where, done)
    assert grown >= 12, grown  # about seven per run
    assert checkpoint_count(where, done) == grown  # every row is one the checkpointer lists
    writes_grown = _write_count(where, done)
    killed_before = _listed_checkpoints(where, killed)
    killed_writes = _write_count(where, killed)
    killed_latest = latest_checkpoint(where, killed)
    assert killed_latest.pending_writes  # finished workers' results wait in pending writes

    from app.storage import open_storage

    # as a run of it in another process would (a flock file, or a PostgreSQL advisory lock)
    with open_storage(where.data_dir, where.database_url).thread_lock(done):
        busy = _prune(where)
    assert {t["thread_id"]: t["action"] for t in busy["threads"]} == {
        done: "kept: busy", killed: "kept: unfinished"}
    assert busy["checkpoints_removed"] == 0 and _listed_checkpoints(where, done) == grown

    dry = _prune(where, "--dry-run")
    assert _listed_checkpoints(where, done) == grown, "a dry run must change nothing"
    assert _write_count(where, done) == writes_grown, "a dry run must change nothing"
    by_id = {t["thread_id"]: t for t in dry["threads"]}
    assert by_id[done]["action"] == "would prune"
    assert by_id[done]["checkpoints_removed"] == grown - 1
    assert by_id[killed]["action"] == "kept: unfinished"
    assert dry["bytes_after"] == dry["bytes_before"] and dry["bytes_freed"] == 0

    size_before = _db_size(where.data_dir)
    result = _prune(where)
    by_id = {t["thread_id"]: t for t in result["threads"]}
    assert by_id[done]["action"] == "pruned"
    assert by_id[done]["checkpoints_removed"] == grown - 1 and by_id[done]["writes_removed"] > 0
    # the counts are the rows that went, and the dry run predicted them
    assert by_id[done]["writes_removed"] == writes_grown - _write_count(where, done)
    assert {k: by_id[done][k] for k in ("checkpoints_removed", "writes_removed")} == {
        k: dry["threads"][[t["thread_id"] for t in dry["threads"]].index(done)][k]
        for k in ("checkpoints_removed", "writes_removed")}
    assert by_id[done]["payload_bytes"] > 0
    assert by_id[killed] == dry["threads"][[t["thread_id"] for t in dry["threads"]].index(
        killed)]
    assert _listed_checkpoints(where, done) == checkpoint_count(where, done) == 1
    from app.runs.inspect import inspect_thread

    # trial 15, finding 11: the kept checkpoint's parent is gone, so what ran into it is unknown
    # (inspect said "-", nothing ran)
    [kept] = inspect_thread(open_storage(where.data_dir, where.database_url),
                            done)["checkpoints"]
    assert kept["ran"] is None and kept["next"] == []
    assert _listed_checkpoints(where, killed) == killed_before  # untouched
    assert _write_count(where, killed) == killed_writes
    after = latest_checkpoint(where, killed)
    assert after.config == killed_latest.config
    assert sorted(map(repr, after.pending_writes)) == sorted(map(repr,
                                                                 killed_latest.pending_writes))
    storage = open_storage(where.data_dir, where.database_url)
    assert result["bytes_after"] == storage.checkpoint_bytes() > 0
    if where.database_url:  # the tables keep the space for new rows: no bytes claimed freed
        assert result["compacts"] is False
        assert not (where.data_dir / CHECKPOINTS_DB).exists()
    else:
        assert result["compacts"] is True
        assert result["bytes_freed"] > 0 and result["bytes_after"] == _db_size(where.data_dir)
        assert _db_size(where.data_dir) < size_before  # VACUUM gave the pages back

    text = _prune_text(where)  # nothing left: says so, exits 0
    assert text.returncode == 0, describe(text)
    assert f"kept    {done}  (nothing to remove" in text.stdout
    # --json says the same: it said "pruned" with 0 removed (found by a new-user trial)
    again = {t["thread_id"]: t for t in _prune(where)["threads"]}
    assert again[done]["action"] == "kept: nothing to remove", again[done]
    place = f" --data-dir {shlex.quote(str(where.data_dir))}" + (
        " --database-url URL" if where.database_url else "")  # pasted, it finds the thread
    assert f"unfinished; continue it with uv run python -m app resume {killed}{place})" in (
        text.stdout)
    if where.database_url:
        assert CHECKPOINTS_DB not in text.stdout
        assert f"the checkpoint tables at {storage.label}" in text.stdout
        assert "PostgreSQL reuses the space" in text.stdout

    rerun = run_app("research", TOPIC, *_args(where, durability_corpus))
    assert rerun.returncode == 0, describe(rerun)
    assert_completed_thread(where, done)
    assert all(r["write_count"] == 3 for r in db_rows(where, done))  # updated in place, 3 runs

    resumed = run_app("resume", killed, *_args(where, durability_corpus)[2:])
    assert resumed.returncode == 0, describe(resumed)
    assert_completed_thread(where, killed)
    assert len(db_rows(where, killed)) == EXPECTED_TASKS


def test_prune_of_a_missing_data_dir_is_bad_input(tmp_path: Path) -> None:
    # a new user's trial: prune --data-dir /tmp/typo-dir said "0 B -> 0 B" and exit 0
    data = tmp_path / "typo-dir"
    for extra in ([], ["--dry-run"]):
        proc = run_app("prune", "--data-dir", str(data), *extra)
        assert proc.returncode == 2, describe(proc)
        assert proc.stderr.strip() == f"error: no data dir {data} (--data-dir): nothing to prune"
        assert not data.exists(), "bad input must write nothing"
    listed = run_app("threads", "--data-dir", str(data))  # a sibling: it names the dir
    assert listed.returncode == 0 and f"no data dir {data}" in listed.stdout, describe(listed)


def test_prune_of_an_unknown_thread_is_bad_input(tmp_path: Path) -> None:
    data = tmp_path / "data"
    proc = run_app("prune", "--data-dir", str(data), "--thread-id", "nope")
    assert proc.returncode == 2, describe(proc)
    assert proc.stderr.startswith("error: ") and len(proc.stderr.strip().splitlines()) == 1
    assert "nope" in proc.stderr
    assert not data.exists(), "bad input must write nothing"


def test_prune_advises_review_for_a_thread_paused_for_review(tmp_path: Path,
                                                            durability_corpus: Path) -> None:
    """A thread paused for a human review is kept, and the advice is ``review`` (``resume``
    would only show the pause again); its pause survives the prune."""
    data = tmp_path / "data"
    common = ["--data-dir", str(data), "--corpus", str(durability_corpus), "--model", "offline"]
    paused = run_app("research", TOPIC, "--as-of", AS_OF, *common, "--review", "--quiet")
    assert paused.returncode == 0, describe(paused)
    thread = thread_id_of()
    proc = run_app("prune", "--data-dir", str(data), "--json")
    assert proc.returncode == 0, describe(proc)
    assert [(t["thread_id"], t["action"]) for t in json.loads(proc.stdout)["threads"]] == [
        (thread, "kept: awaiting review")]
    proc = run_app("prune", "--data-dir", str(data))
    assert proc.returncode == 0, describe(proc)
    pasted = (f"decide its review: uv run python -m app review {thread} --data-dir "
              f"{shlex.quote(str(data))} --approve (")
    assert pasted in proc.stdout
    assert "resume" not in proc.stdout
    shown = run_app("review", thread, *common, "--json")  # still awaits its plan review
    assert shown.returncode == 0, describe(shown)
    assert json.loads(shown.stdout)["review"]["stage"] == "plan"


def test_prune_of_one_busy_thread_says_try_later(tmp_path: Path, durability_corpus: Path
                                                 ) -> None:
    """``prune --thread-id`` of a thread another process is running did nothing: exit 75
    (``EX_TEMPFAIL``), like any other command refused because the thread is busy."""
    from app.storage import open_storage

    data = tmp_path / "data"
    done = run_app("research", TOPIC, "--as-of", AS_OF, "--data-dir", str(data), "--corpus",
                   str(durability_corpus), "--model", "offline", "--quiet")
    assert done.returncode == 0, describe(done)
    with open_storage(data).thread_lock(thread_id_of()):
        proc = run_app("prune", "--data-dir", str(data), "--thread-id", thread_id_of())
    assert proc.returncode == 75, describe(proc)
    assert "another process is running it" in proc.stdout
