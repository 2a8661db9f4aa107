"""A thread lock lost while its run goes (found by a new-user trial): the run must notice it.

* PostgreSQL: a run suspended past its lease's TTL (Ctrl-Z, SIGSTOP, a paused VM) lost the
  thread to a second process and, continued, went on: the same tasks ran in both, both exited 0.
* SQLite: deleting the data dir's ``locks/`` folder (clearing what looks like a stale lock) let a
  second process lock a new file and run the thread alongside the first.

``Storage.lock_lost()`` (asked at every progress event, with ``vanished()``) says so in one line,
and the run stops with :class:`app.storage.ThreadLockLost`; a sound lock costs no statement.
"""

from __future__ import annotations

import shutil
import time

from app.storage import ThreadLockLost, open_storage
from app.storage.lease import Lease
from app.storage.postgres import PostgresStorage, _held_leases


def test_a_deleted_lock_file_is_a_lost_lock(tmp_path) -> None:
    data = tmp_path / "data"
    storage = open_storage(data)
    with storage.thread_lock("t1"), storage.checkpointer():  # as a run holds them
        assert storage.lock_lost() is None and storage.lost() is None
        shutil.rmtree(data / "locks")  # a user clears "a stale lock"
        lost = open_storage(data).lost()  # any description of the data dir sees it
        assert isinstance(lost, ThreadLockLost), lost
        assert "'t1'" in str(lost) and str(data / "locks") in str(lost)
        assert "\n" not in str(lost)
    assert storage.lock_lost() is None  # released: nothing held, nothing lost


def test_a_lease_taken_while_its_holder_was_suspended_is_a_lost_lock(postgres_url) -> None:
    storage = PostgresStorage(postgres_url, lease_ttl=1.5)
    with storage.thread_lock("t1"):
        assert storage.lock_lost() is None
        ((_, lease),) = [v for k, v in _held_leases.items() if k[1] == postgres_url]
        lease._stop.set()  # the process is stopped: no heartbeat
        lease._beat.join()
        time.sleep(1.7)  # past the TTL, nobody took it: renewed on asking, not lost
        assert storage.lock_lost() is None
        time.sleep(1.7)
        other = Lease(storage._connect, "thread:t1", ttl=30)  # a second process takes it
        other.__enter__()
        try:
            why = storage.lock_lost()
            assert why is not None and "another process took the thread" in why, why
            assert isinstance(storage.lost(), ThreadLockLost)
        finally:
            other.__exit__(None, None, None)
