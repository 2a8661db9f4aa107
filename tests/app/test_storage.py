"""The storage contract, on both backends (SQLite files; PostgreSQL on a server the tests start):
thread locks that die with their process, thread listing through the checkpointer, read-only
opens that create nothing."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from app.storage import Storage, ThreadBusy, open_storage
from app.storage.postgres import PostgresStorage, redact_url
from app.storage.sqlite import CHECKPOINTS_DB, RESULTS_DB, SqliteStorage

ROOT = Path(__file__).resolve().parents[2]


class _State(TypedDict):
    n: int


def _tiny_graph(saver):
    builder = StateGraph(_State)
    builder.add_node("inc", lambda s: {"n": s["n"] + 1})
    builder.add_edge(START, "inc")
    builder.add_edge("inc", END)
    return builder.compile(checkpointer=saver)


def test_open_storage_picks_the_backend_from_the_url(tmp_path: Path) -> None:
    assert isinstance(open_storage(tmp_path), SqliteStorage)
    assert isinstance(open_storage(tmp_path, ""), SqliteStorage)
    pg = open_storage(tmp_path, "postgresql://me:s3cret@db.example:5432/research")
    assert isinstance(pg, PostgresStorage)
    assert "s3cret" not in pg.label and "db.example" in pg.label
    with pytest.raises(ValueError, match="postgresql://"):
        open_storage(tmp_path, "mysql://me@db/x")
    assert not any(tmp_path.iterdir()), "choosing a backend must not create anything"


def test_redact_url_hides_only_the_password() -> None:
    from app.settings.credentials import url_secrets

    assert redact_url("postgresql://u:p%40ss@h:5/d") == "postgresql://u:***@h:5/d"
    assert redact_url("postgresql://u@h/d") == "postgresql://u@h/d"
    # a new user's trial: a query-string password was printed in clear, and an '@' inside the
    # password left its tail in view (user:***@ss@host)
    assert redact_url("postgresql://u@127.0.0.1:1/db?password=topsecret") == (
        "postgresql://u@127.0.0.1:1/db?password=***")
    assert redact_url("postgresql://user:p@ss@host/db") == "postgresql://user:***@host/db"
    assert redact_url("postgresql://h/d?sslmode=require&sslpassword=a&API_TOKEN=b&x_secret=c"
                      "#f") == "postgresql://h/d?sslmode=require&sslpassword=***&API_TOKEN=***" \
                               "&x_secret=***#f"
    # issue 21: a password holding '/', '?' or '#' was read as ending the authority there, and
    # printed whole (libpq reads '?' and '#' in it as written; '/' is refused by the settings)
    for char in "/?#":
        url = f"postgresql://u:top{char}secret@127.0.0.1:1/db?x=a@b&sslpassword=k3y"
        assert redact_url(url) == "postgresql://u:***@127.0.0.1:1/db?x=a@b&sslpassword=***"
        assert url_secrets(url) == [f"top{char}secret", "k3y"]


def test_every_secret_of_a_database_url_is_masked_in_any_error_line() -> None:
    from app.settings.config import Settings
    from app.settings.credentials import redact

    settings = Settings(database_url="postgresql://u:pw%40x@h/d?sslpassword=k3y5ecret")
    line = "connect failed for pw@x at h (key k3y5ecret)"
    assert redact(line, settings) == "connect failed for *** at h (key ***)"


def test_a_database_url_is_shown_with_only_its_secrets_masked() -> None:
    # trial 8: a URL without a password was masked whole ("cannot connect to PostgreSQL at
    # ***"), since the whole setting counted as a secret; and a query password before the
    # line's ':' took the ':' with it ("password=*** connection failed")
    from app.settings.config import Settings
    from app.settings.credentials import redact

    for url, shown in (
            ("postgresql://bob@127.0.0.1:1/x", "postgresql://bob@127.0.0.1:1/x"),
            ("postgresql://bob:s3cret@127.0.0.1:1/x", "postgresql://bob:***@127.0.0.1:1/x"),
            ("postgresql://127.0.0.1:1/x?password=abcdef&sslmode=disable",
             "postgresql://127.0.0.1:1/x?password=***&sslmode=disable"),
            ("postgresql://127.0.0.1:1/x?password=abcdef", "postgresql://127.0.0.1:1/x?password=***")):
        for settings in (Settings(database_url=url), Settings(database_direct_url=url)):
            line = f"cannot connect to PostgreSQL at {redact_url(url)}: connection refused"
            assert redact(line, settings) == (
                f"cannot connect to PostgreSQL at {shown}: connection refused"), url
            # the URL printed as given (an argument echoed back) shows the same
            assert redact(f"at {url}: refused", settings) == f"at {shown}: refused"


def test_a_database_url_libpq_would_misread_is_refused() -> None:
    # libpq takes the host from the first '@' and printed the password's tail as the host name;
    # with a '/' in the password it read no password at all: host 'user', port the password's
    # start, and its errors printed the rest (issue 21)
    from app.settings.checks import check_database_url

    for bad in ("postgresql://user:p@zq@127.0.0.1:1/db", "postgresql://user:p/zq@127.0.0.1/db",
                "postgresql://user:123/a?zq@127.0.0.1/db", "postgresql://user:p%zq@h/db"):
        with pytest.raises(ValueError, match="%40, %2F, %25") as info:
            check_database_url(bad)
        assert "zq" not in str(info.value)  # never shown: it may be the password
    # trial 35, F1: what libpq's own parser refuses, and a port past 65535, failed at the
    # run as "run failed: ProgrammingError" (exit 1); one line, the password never shown
    for bad, says in (("postgresql://u:zq@[::1", 'matching "]" in IPv6 host address'),
                      ("postgresql://u:zq@h/db?foo=bar", 'invalid URI query parameter: "foo"'),
                      # trial 66, F4: a host's bad port was told to percent-encode
                      ("postgresql://u:zq@h:99999/db", "the port of host 'h' must be a number"),
                      ("postgresql://u:zq@h:abc/db", "the port of host 'h' must be a number")):
        with pytest.raises(ValueError, match=re.escape(says)) as info:
            check_database_url(bad)
        assert "zq" not in str(info.value) and "\n" not in str(info.value)
    for good in ("postgresql://user:p%40ss@127.0.0.1:1/db?application_name=a@b",
                 "postgresql://u:p?s#s@h/d",
                 "postgresql://u:p%2Fss@[::1]:5432/d?sslmode=require", "postgres://h1,h2:5/d",
                 "postgresql:///db?host=/var/run/postgresql"):
        check_database_url(good)


def test_running_threads_are_read_without_taking_a_lock(storage: Storage, monkeypatch) -> None:
    # issue 21: `threads` could not tell a running thread from a killed one. Taking the lock to
    # find out would refuse a run starting at that moment (exit 75): it is read instead
    # (/proc/locks; PostgreSQL's lease rows).
    import fcntl

    assert storage.running_threads(["t1", "t2"]) == set()
    with storage.thread_lock("t1"):
        monkeypatch.setattr(fcntl, "flock", lambda *a: pytest.fail("a lock was taken"))
        assert storage.running_threads(["t1", "t2"]) == {"t1"}
        monkeypatch.undo()
        with pytest.raises(ThreadBusy):  # still held: reading it took nothing away
            with storage.thread_lock("t1"):
                pass
    assert storage.running_threads(["t1"]) == set()


def test_held_flocks_reads_proc_locks_lines(tmp_path: Path) -> None:
    from app.storage.file_watch import held_flocks

    locks = tmp_path / "locks"
    locks.write_text("1: FLOCK  ADVISORY  WRITE 2165 fe:00:2400350 0 EOF\n"
                     "2: POSIX  ADVISORY  WRITE 99 fe:00:7 0 EOF\n"
                     "3: -> FLOCK  ADVISORY  WRITE 2166 fe:00:2400350 0 EOF\n"
                     "4: FLOCK  ADVISORY  READ 2119 08:1a:16039943 0 EOF\n", encoding="ascii")
    assert held_flocks(str(locks)) == {(0xFE, 0, 2400350), (8, 0x1A, 16039943)}
    assert held_flocks(str(tmp_path / "none")) is None


def test_a_thread_lock_is_exclusive_per_thread(storage: Storage) -> None:
    with storage.thread_lock("t1"):
        with pytest.raises(ThreadBusy, match="being run by another process"):
            with storage.thread_lock("t1"):
                pass
        with storage.thread_lock("t2"):  # another thread is not blocked
            pass
    with storage.thread_lock("t1"):  # released on exit
        pass


def test_a_thread_held_by_prune_is_refused_naming_prune(storage: Storage) -> None:
    # trial 10, finding 34: a run started while prune compacted its thread was told the thread
    # "is being run by another process; wait for it, or use --fresh" (a new thread, for a lock
    # held a second)
    with storage.thread_lock("t1", holder="prune"):
        with pytest.raises(ThreadBusy) as busy:
            with storage.thread_lock("t1"):
                pass
    assert str(busy.value) == ("thread 't1' is being pruned by another process (prune compacts "
                               "its checkpoints, which takes a moment); try again in a moment")
    assert busy.value.brief and busy.value.thread_id == "t1"
    with storage.thread_lock("t1"):  # released; a run holds it now: the run's line
        with pytest.raises(ThreadBusy, match="being run by another process") as busy:
            with storage.thread_lock("t1", holder="prune"):
                pass
        assert not busy.value.brief


_HOLD_LOCK = """
import sys, time
from app.storage import open_storage
storage = open_storage(sys.argv[1], sys.argv[2] or None)
with storage.thread_lock("t1"):
    print("locked", flush=True)
    time.sleep(120)
"""


def test_a_killed_process_leaves_no_stale_lock(storage: Storage, tmp_path: Path) -> None:
    url = storage.url if isinstance(storage, PostgresStorage) else ""
    holder = subprocess.Popen([sys.executable, "-c", _HOLD_LOCK, str(tmp_path / "data"), url],
                              cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(ThreadBusy):
            with storage.thread_lock("t1"):
                pass
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=30)
    deadline = time.monotonic() + 15  # the server notices the closed session on its own
    while True:
        try:
            with storage.thread_lock("t1"):
                break
        except ThreadBusy:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_thread_ids_and_has_thread_go_through_the_checkpointer(storage: Storage) -> None:
    with storage.checkpointer() as saver:
        assert storage.thread_ids(saver) == []
        graph = _tiny_graph(saver)
        for thread_id in ("b", "a"):
            graph.invoke({"n": 1}, {"configurable": {"thread_id": thread_id}})
        graph.invoke({"n": 5}, {"configurable": {"thread_id": "b"}})  # a rerun: still one id
        assert storage.thread_ids(saver) == ["b", "a"]  # oldest first
        assert storage.has_thread(saver, "a") and not storage.has_thread(saver, "zz")
    assert storage.checkpoint_bytes() > 0
    with storage.checkpointer(read_only=True) as reader:
        assert storage.thread_ids(reader) == ["b", "a"]
        tup = reader.get_tuple({"configurable": {"thread_id": "b", "checkpoint_ns": ""}})
        assert tup.checkpoint["channel_values"]["n"] == 6


def test_read_only_opens_of_an_empty_storage_create_nothing(storage: Storage) -> None:
    with storage.checkpointer(read_only=True) as saver:
        assert saver is None
        assert storage.thread_ids(saver) == []
        assert not storage.has_thread(saver, "t")
    with storage.results(read_only=True) as store:
        assert store is None
    if isinstance(storage, SqliteStorage):
        assert not storage.data_dir.exists()
    else:
        assert storage.checkpoint_bytes() == 0  # no checkpoint tables either
    with storage.results() as store:  # a writer creates the tables
        store.start_run("t", topic="x", as_of="2026-11-30", model="offline")
    with storage.results(read_only=True) as store:
        assert store.run("t")["status"] == "running"


def test_the_sqlite_files_live_in_the_data_dir(tmp_path: Path) -> None:
    storage = SqliteStorage(tmp_path / "data")
    with storage.checkpointer() as saver:
        _tiny_graph(saver).invoke({"n": 0}, {"configurable": {"thread_id": "t"}})
    with storage.results():
        pass
    names = {p.name for p in (tmp_path / "data").iterdir()}
    assert {CHECKPOINTS_DB, RESULTS_DB} <= names


def test_threads_opening_a_fresh_results_file_at_once_never_see_locked(tmp_path: Path) -> None:
    """Switching to WAL takes an exclusive lock and SQLite does not wait for it (no busy handler):
    four threads opening one new file lost that race about once in twenty rounds, as
    ``database is locked`` (found in test_store's concurrent upserts on a slow machine)."""
    import threading

    from app.storage.sqlite import SqliteResults

    errors: list[BaseException] = []

    def open_close(path: Path) -> None:
        try:
            SqliteResults(path).close()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    for i in range(200):
        path = tmp_path / f"r{i}.sqlite"
        threads = [threading.Thread(target=open_close, args=(path,)) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not errors, errors[:1]
