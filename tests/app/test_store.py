"""The results database: one row per envelope_id, one transaction per upsert, never half-written.

Every test runs on both backends (the ``storage`` fixture: SQLite files and a PostgreSQL server
started by the tests), which must behave the same."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from app.storage import ResultsStore, Storage
from app.storage.sqlite import RESULTS_DB, SqliteResults
from state import make_envelope_id

AS_OF = "2026-11-30"


def env(worker: str = "analyst", question: str = "What is X?", *, status: str = "ok",
        structured: dict | None = None, eid: str | None = None, **extra) -> dict:
    return {
        "envelope_id": eid if eid is not None else make_envelope_id(worker, question, AS_OF),
        "worker": worker,
        "task_key": question,
        "as_of": AS_OF,
        "status": status,
        "structured": {"items": [{"kind": "finding", "text": "x", "ref": "d#0"}]}
        if structured is None and status == "ok" else structured,
        **extra,
    }


def _integrity_errors() -> tuple[type[BaseException], ...]:
    import psycopg

    return (sqlite3.IntegrityError, psycopg.IntegrityError)


@pytest.fixture
def store(storage: Storage):
    with storage.results() as s:
        yield s


def test_in_dir_creates_the_folder_and_the_database(tmp_path: Path) -> None:
    data_dir = tmp_path / "a" / "b"
    with SqliteResults.in_dir(data_dir) as s:
        assert s.count() == 0
    assert (data_dir / RESULTS_DB).is_file()


def test_upsert_writes_one_row_per_envelope_id(store: ResultsStore) -> None:
    batch = [env("analyst", "Q1"), env("critic", "Q1"), env("analyst", "Q2")]
    assert store.upsert(batch, thread_id="t", topic="topic") == 3
    assert store.count() == 3
    assert store.upsert(batch, thread_id="t", topic="topic") == 3
    assert store.upsert(batch[:1], thread_id="t", topic="topic") == 1
    rows = {r["envelope_id"]: r for r in store.rows()}
    assert len(rows) == 3
    assert [rows[e["envelope_id"]]["write_count"] for e in batch] == [3, 2, 2]
    assert store.duplicate_count() == 0


def test_upsert_updates_the_row_in_place(store: ResultsStore) -> None:
    failed = env("critic", "Q1", status="error", error="boom", attempts=3)
    store.upsert([failed], thread_id="t", topic="topic")
    (before,) = store.rows()
    fixed = env("critic", "Q1", structured={"items": [{"kind": "caveat", "text": "c",
                                                       "ref": "d#1"}]}, round=2, tokens=7)
    store.upsert([fixed], thread_id="t", topic="topic")
    (after,) = store.rows()
    assert after["envelope_id"] == before["envelope_id"]
    assert (after["status"], after["error"], after["round"], after["tokens"]) == ("ok", None, 2, 7)
    assert after["structured"] == fixed["structured"]  # stored as JSON, read back as a dict
    assert after["thread_id"] == "t"
    assert after["write_count"] == 2
    assert after["first_written_at"] == before["first_written_at"]
    assert after["last_written_at"] >= before["last_written_at"]


def test_an_error_never_replaces_an_ok_row(store: ResultsStore) -> None:
    """A rerun whose task failed wrote its error row over the thread's ok row: the earlier
    result was lost. The upsert leaves an ok row as it is when the write is an error (the rule
    of ``envelope_reducer``'s rule 8, for a state that no longer held the ok result, e.g. its
    checkpoints moved aside), and an ok write still replaces an error row (test above)."""
    good = env("critic", "Q1", round=1, tokens=7)
    other = env("analyst", "Q1", status="error", error="old", round=1)
    store.upsert([good, other], thread_id="t", topic="topic")
    before = {r["envelope_id"]: r for r in store.rows()}
    failed = env("critic", "Q1", status="error", error="InjectedWorkerError: no", round=3)
    again = dict(other, error="new", round=3)
    assert store.upsert([failed, again], thread_id="t", topic="topic") == 2
    after = {r["envelope_id"]: r for r in store.rows()}
    assert after[good["envelope_id"]] == before[good["envelope_id"]]  # untouched, write_count too
    assert (after[other["envelope_id"]]["error"], after[other["envelope_id"]]["round"],
            after[other["envelope_id"]]["write_count"]) == ("new", 3, 2)  # error over error
    assert store.upsert([failed], thread_id="another", topic="topic") == 1  # another thread's
    assert {r["status"] for r in store.rows(thread_id="another")} == {"error"}


def test_another_thread_gets_its_own_row_for_the_same_task(store: ResultsStore) -> None:
    # e.g. another topic that shares a sub-question, or the same topic on another corpus: its
    # results must not overwrite this thread's
    mine = env("analyst", "Q1", structured={"items": [{"kind": "finding", "text": "a",
                                                       "ref": "a.md#0"}]})
    theirs = env("analyst", "Q1", structured={"items": [{"kind": "finding", "text": "b",
                                                         "ref": "b.md#0"}]})
    store.upsert([mine], thread_id="t1", topic="one")
    store.upsert([theirs], thread_id="t2", topic="two")
    (row1,) = store.rows([mine["envelope_id"]], thread_id="t1")
    (row2,) = store.rows([theirs["envelope_id"]], thread_id="t2")
    assert row1["structured"] == mine["structured"] and row1["write_count"] == 1
    assert row2["structured"] == theirs["structured"] and row2["write_count"] == 1
    assert store.duplicate_count() == 0


def test_a_failing_batch_is_rolled_back_whole(store: ResultsStore) -> None:
    kept = env("analyst", "Q1")
    store.upsert([kept], thread_id="t", topic="topic")
    bad = env("critic", "Q2")
    bad["worker"] = None  # NOT NULL: the third statement of the batch fails
    batch = [dict(kept, status="error", error="should roll back"), env("docs_search", "Q2"), bad]
    with pytest.raises(_integrity_errors()):
        store.upsert(batch, thread_id="t", topic="topic")
    (row,) = store.rows()  # the insert of the second envelope was undone too
    assert row["envelope_id"] == kept["envelope_id"]
    assert (row["status"], row["error"], row["write_count"]) == ("ok", None, 1)
    # The connection is usable again: no transaction was left open.
    assert store.upsert([env("docs_search", "Q2")], thread_id="t", topic="topic") == 1
    assert store.count() == 2


def test_a_failing_batch_leaves_nothing_for_other_connections(storage: Storage) -> None:
    with storage.results() as a:
        with pytest.raises(_integrity_errors()):
            a.upsert([env("analyst", "Q1"), dict(env("critic", "Q1"), as_of=None)],
                     thread_id="t", topic="topic")
    with storage.results() as b:
        assert b.count() == 0


def test_empty_batch_writes_nothing(store: ResultsStore) -> None:
    assert store.upsert([], thread_id="t", topic="topic") == 0
    assert store.count() == 0


def test_duplicate_count_counts_extra_rows_of_one_logical_task(store: ResultsStore) -> None:
    store.upsert([env("analyst", "Q1"), env("analyst", "Q2"), env("critic", "Q1")],
                 thread_id="t", topic="topic")
    assert store.duplicate_count() == 0
    # Rows keyed by something else than the deterministic id (say, LangGraph's task_id) would
    # give one logical task several rows: exactly what duplicate_count exists to catch.
    store.upsert([env("analyst", "Q1", eid="task-uuid-1"), env("analyst", "Q1", eid="task-uuid-2")],
                 thread_id="t", topic="topic")
    assert store.count() == 5
    assert store.duplicate_count() == 2
    # Another as_of is another logical task, not a duplicate.
    other_day = dict(env("analyst", "Q2"), as_of="2026-12-01",
                     envelope_id=make_envelope_id("analyst", "Q2", "2026-12-01"))
    store.upsert([other_day], thread_id="t", topic="topic")
    assert store.duplicate_count() == 2


def test_rows_filter_by_ids_and_thread(store: ResultsStore) -> None:
    a, b, c = env("analyst", "Q1"), env("critic", "Q1"), env("analyst", "Q2")
    store.upsert([a, b], thread_id="t1", topic="one")
    store.upsert([c], thread_id="t2", topic="two")
    assert {r["envelope_id"] for r in store.rows(thread_id="t1")} == {a["envelope_id"],
                                                                      b["envelope_id"]}
    assert [r["envelope_id"] for r in store.rows([c["envelope_id"], "missing"])] == [
        c["envelope_id"]]
    assert store.rows([]) == []
    assert store.rows([a["envelope_id"]], thread_id="t2") == []
    assert store.count(thread_id="t2") == 1


def test_concurrent_upserts_of_the_same_ids_never_add_rows(storage: Storage) -> None:
    batch = [env(w, q) for w in ("analyst", "critic", "docs_search") for q in ("Q1", "Q2")]
    errors: list[BaseException] = []

    def writer() -> None:
        try:
            with storage.results() as s:  # one connection per thread
                for _ in range(5):
                    s.upsert(batch, thread_id="t", topic="topic")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    with storage.results() as s:
        rows = s.rows()
        assert s.duplicate_count() == 0
    assert len(rows) == len(batch)
    assert all(r["write_count"] == 20 for r in rows)


def test_runs_table_records_start_and_finish(store: ResultsStore) -> None:
    store.start_run("t", topic="topic", as_of=AS_OF, model="offline")
    assert store.run("t")["status"] == "running"
    store.finish_run("t", status="finished", tokens=12, report_path="/r.md", summary={"ok": True})
    run = store.run("t")
    assert (run["status"], run["tokens"], run["report_path"]) == ("finished", 12, "/r.md")
    assert run["finished_at"] is not None
    store.start_run("t", topic="topic", as_of=AS_OF, model="offline")  # resumed: running again
    assert store.run("t")["status"] == "running" and store.run("t")["finished_at"] is None
    assert [r["thread_id"] for r in store.runs()] == ["t"]
    assert store.run("nope") is None


def test_rows_read_the_same_on_both_backends(store: ResultsStore) -> None:
    """Same keys, same types, insertion order: callers never branch on the backend."""
    first, second = env("critic", "Q2"), env("analyst", "Q1")
    store.upsert([first], thread_id="t", topic="topic")
    store.upsert([second], thread_id="t", topic="topic")
    store.upsert([first], thread_id="t", topic="topic")  # an update keeps its place
    rows = store.rows()
    assert [r["envelope_id"] for r in rows] == [first["envelope_id"], second["envelope_id"]]
    assert list(rows[0]) == ["envelope_id", "thread_id", "topic", "worker", "task_key", "as_of",
                             "status", "error", "structured", "round", "attempts", "tokens",
                             "task_id", "write_count", "first_written_at", "last_written_at"]
    assert isinstance(rows[0]["write_count"], int) and isinstance(rows[0]["as_of"], str)
    assert isinstance(store.count(), int) and isinstance(store.duplicate_count(), int)


def test_each_thread_keeps_its_latest_report(store: ResultsStore) -> None:
    """``inspect THREAD_ID --report`` reads this: one report per thread, replaced by the next
    run of the same thread, never another thread's."""
    store.save_report("t", "# First\n\nété ✓\n")
    store.save_report("u", "# Other thread\n")
    assert store.report("t") == "# First\n\nété ✓\n"
    store.save_report("t", "# Rerun\n")
    assert store.report("t") == "# Rerun\n"
    assert store.report("u") == "# Other thread\n"
    assert store.report("nope") is None


def test_a_database_from_before_reports_gets_the_table_and_keeps_its_rows(storage: Storage
                                                                          ) -> None:
    """An existing database (made before the ``reports`` table) is read without error, and
    the next writable open adds the table without touching the rows already there."""
    with storage.results() as store:
        store.upsert([env()], thread_id="t", topic="topic")
        store.start_run("t", topic="topic", as_of=AS_OF, model="offline")
        store._conn.execute("DROP TABLE reports")  # as a database written before reports were
    with storage.results(read_only=True) as store:
        assert store.report("t") is None  # no table: no report, not an error
    with storage.results() as store:
        assert store.count(thread_id="t") == 1 and store.run("t")["status"] == "running"
        store.save_report("t", "# Report\n")
    with storage.results(read_only=True) as store:
        assert store.report("t") == "# Report\n"


def test_count_of_counts_the_rows_rows_would_return(store: ResultsStore) -> None:
    a, b, c = env("analyst", "Q1"), env("critic", "Q1"), env("analyst", "Q2")
    store.upsert([a, b], thread_id="t1", topic="one")
    store.upsert([c], thread_id="t2", topic="two")
    ids = [a["envelope_id"], b["envelope_id"], c["envelope_id"], "missing"]
    assert store.count_of(ids, thread_id="t1") == len(store.rows(ids, thread_id="t1")) == 2
    assert store.count_of(ids, thread_id="t2") == 1
    assert store.count_of([], thread_id="t1") == 0


def test_upsert_builds_each_rows_json_as_it_is_sent(store: ResultsStore, monkeypatch) -> None:
    """A persist of 12,000 envelopes must not hold 12,000 payloads' JSON at once (issue 21,
    item 13): the driver gets the rows one at a time, each built when it is sent."""
    import app.storage.results as results

    built: list[int] = []
    real_dumps = results.json.dumps

    class Counting:
        @staticmethod
        def dumps(*args, **kwargs):
            built.append(1)
            return real_dumps(*args, **kwargs)

        loads = staticmethod(results.json.loads)

    monkeypatch.setattr(results, "json", Counting)
    real_write = type(store)._write
    seen: list[int] = []

    def write(self, sql, rows):
        def watched():
            for row in rows:
                seen.append(len(built))  # payloads built when this row was sent
                yield row

        return real_write(self, sql, watched())

    monkeypatch.setattr(type(store), "_write", write)
    batch = [env("analyst", f"Q{i}") for i in range(5)]
    assert store.upsert(batch, thread_id="t", topic="topic") == 5
    assert seen == [1, 2, 3, 4, 5]
    assert store.count(thread_id="t") == 5


def test_a_row_that_cannot_be_built_rolls_the_batch_back(store: ResultsStore) -> None:
    broken = env("critic", "Q2")
    del broken["worker"]  # the row fails while the transaction is open
    with pytest.raises(KeyError):
        store.upsert([env("analyst", "Q1"), broken], thread_id="t", topic="topic")
    assert store.count() == 0
    assert store.upsert([env("analyst", "Q1")], thread_id="t", topic="topic") == 1


def test_rows_share_equal_strings_across_payloads(store: ResultsStore) -> None:
    """Rows cite the same passages again and again: decoded, an equal text is one object, not
    a copy per row (12,000 rows took about 60 MB more; issue 21, item 13)."""
    text = "The checkpointer saves each superstep of the thread. " * 4
    cited = {"items": [{"kind": "passage", "text": text, "ref": "d.md#0", "title": "D"}]}
    store.upsert([env("analyst", "Q1", structured=cited), env("critic", "Q2", structured=cited)],
                 thread_id="t", topic="topic")
    first, second = (r["structured"]["items"][0] for r in store.rows(thread_id="t"))
    assert first == second == cited["items"][0]
    assert first["text"] is second["text"]


def test_a_run_records_its_out_and_a_database_from_before_gets_the_column(storage: Storage
                                                                          ) -> None:
    """``runs.report_out`` is the run's ``--out`` (``review``/``resume`` by id write there). A
    database made before the column reads it as None, read-only, and the next writable open
    adds it without touching the rows already there."""
    with storage.results() as store:
        store.start_run("t", topic="topic", as_of=AS_OF, model="offline", report_out="/r/dir/")
        assert store.run("t")["report_out"] == "/r/dir/"
        store.start_run("t", topic="topic", as_of=AS_OF, model="offline")  # a run without one
        assert store.run("t")["report_out"] is None
        store.record_out("t", "/given.md")  # research TOPIC --out given at a review pause
        assert store.run("t")["report_out"] == "/given.md"
        assert store.run("t")["status"] == "running"  # its status as it was
        store.record_out("t", None)
        store._conn.execute("ALTER TABLE runs DROP COLUMN report_out")  # as an older database
    with storage.results(read_only=True) as store:
        assert store.run("t")["report_out"] is None and store.run("t")["topic"] == "topic"
        assert [r["report_out"] for r in store.runs()] == [None]
    with storage.results() as store:
        assert store.run("t")["status"] == "running"
        store.start_run("t", topic="topic", as_of=AS_OF, model="offline", report_out="/r.md")
        assert store.run("t")["report_out"] == "/r.md"
