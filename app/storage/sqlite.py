"""The embedded default: two SQLite files in the data dir, and ``flock`` thread locks.

* ``checkpoints.sqlite``: LangGraph's ``SqliteSaver``. It is sync only, and LangGraph runs sync
  nodes in a thread pool, so the connection opened here needs ``check_same_thread=False`` (the
  saver serializes access with its own lock).
* ``results.sqlite``: the results database (:mod:`app.storage.results`): rows, runs, reports.
* ``locks/<hash>.lock``: one ``flock`` per thread id.

WAL and a 30 s busy timeout let two processes share one data dir without "database is locked".
``read_only`` opens with SQLite's ``mode=ro`` URI (``immutable=1`` when the folder is read-only
and the WAL index cannot be created), so ``threads`` and ``inspect`` work on a read-only data dir.
A damaged file (``database disk image is malformed``, ``file is not a database``) is reported as a
:class:`~app.storage.DamagedDatabase` naming the file and the way out.

Source: ``langgraph.checkpoint.sqlite.SqliteSaver`` (langgraph-checkpoint-sqlite); SQLite's URI
filenames (https://sqlite.org/uri.html).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from app.runs.ids import sha8
from app.storage.base import (
    ROOT_THREADS_SQL,
    DamagedDatabase,
    Storage,
    StorageVanished,
    ThreadBusy,
)
from app.storage.file_watch import file_id, held_flocks, replaced, say_holder
from app.storage.results import ResultsStore
from app.storage.sqlite_files import connect, damaged_file, is_damage, not_a_file
from app.storage.sqlite_results import (
    RESULTS_DB,
    ForeignSchema,
    SqliteResults,
    has_table,
    shape_problem,
)

__all__ = ["CHECKPOINTS_DB", "RESULTS_DB", "SqliteResults", "SqliteStorage"]

CHECKPOINTS_DB = "checkpoints.sqlite"

_opened_files: dict[str, tuple[int, int]] = {}
"""``(st_dev, st_ino)`` of each checkpoint database this process opened for writing, by
resolved path: :meth:`SqliteStorage.vanished` tells a file made again from the one in use."""


_opened_results: dict[str, tuple[int, tuple[int, int]]] = {}
"""The results database a run of this process opened first while it held a thread lock in its
data dir, by resolved path: a file descriptor kept open on it until the last such lock is
released, and its ``(st_dev, st_ino)``; :meth:`SqliteStorage.vanished` tells it deleted or
replaced. SQLite makes a missing file again at the next open, so the run went on into a new,
empty database, without the run record made at its start or the rows of the thread's earlier
runs, and claimed success (trial 58, F1). The descriptor keeps the inode taken: a file made in
its place cannot get its number (the run's connections to it come and go; the checkpoint
database's stays open for the run)."""


_held_locks: dict[str, tuple[str, tuple[int, int]]] = {}
"""Each thread lock file this process holds a ``flock`` on, by resolved path: ``(thread_id,
(st_dev, st_ino) of the locked file)``; :meth:`SqliteStorage.lock_lost` tells a deleted or
replaced lock file (a ``flock`` on an unlinked file keeps no other process out)."""


CHECKPOINT_TABLES = {
    "checkpoints": (("thread_id", "checkpoint_ns", "checkpoint_id", "parent_checkpoint_id",
                     "type", "checkpoint", "metadata"),
                    ("thread_id", "checkpoint_ns", "checkpoint_id")),
    "writes": (("thread_id", "checkpoint_ns", "checkpoint_id", "task_id", "idx", "channel",
                "type", "value"),
               ("thread_id", "checkpoint_ns", "checkpoint_id", "task_id", "idx")),
}
"""``SqliteSaver``'s tables (langgraph-checkpoint-sqlite's ``setup``; ``writes.task_path`` is
one it adds itself): a file holding others is not a checkpoint database of this app."""
FOREIGN = "another program's, or an earlier version of this app's"
"""What a database of another layout is said to be
(:func:`app.storage.sqlite_results.shape_problem`)."""


class SqliteStorage(Storage):
    """Checkpoints and results as SQLite files in ``data_dir`` (the default backend).

    Args:
        data_dir: the folder; created on the first write, never by a read-only open.
    """

    def __init__(self, data_dir: Path | str) -> None:
        self.data_dir = Path(data_dir)
        self.label = str(self.data_dir)
        self._keys: dict[Path, str] = {}

    def _key(self, path: Path) -> str:
        """``path`` (one of this data dir's fixed paths: a database, the ``locks`` folder)
        resolved, as the process-wide records (:data:`_opened_files`, :data:`_opened_results`,
        :data:`_held_locks`) key it; resolved once and kept.
        :meth:`lost` runs at every progress event of a run, on the thread that drives the
        graph: ``Path.resolve`` costs an ``lstat`` per component, each a release of the GIL
        that waits for it behind the busy workers (about 10 ms a task at 1,200 tasks,
        docs/deploy.md, "What grows with the tasks"); only the identity ``stat`` is repeated."""
        key = self._keys.get(path)
        if key is None:
            key = self._keys[path] = str(path.resolve())
        return key

    @property
    def checkpoints_path(self) -> Path:
        """The checkpoint database file, ``<data dir>/checkpoints.sqlite`` (may not exist)."""
        return self.data_dir / CHECKPOINTS_DB

    @property
    def results_path(self) -> Path:
        """The results database file, ``<data dir>/results.sqlite`` (may not exist)."""
        return self.data_dir / RESULTS_DB

    def damaged(self, exc: BaseException) -> DamagedDatabase | None:
        """The :class:`DamagedDatabase` error naming the damaged file (or both), if ``exc`` is
        SQLite reporting damage; else None. Each file is checked with ``PRAGMA quick_check`` to
        name the right one: both named in one line when both are damaged, so the way out is
        said once and whole (one line each read as two faults, and moving the first aside only
        led to the second)."""
        if not is_damage(exc):
            return None
        bad = [p for p in (self.checkpoints_path, self.results_path) if damaged_file(p)]
        reason = str(exc).splitlines()[0]
        if not bad:
            return DamagedDatabase(f"a database in {self.data_dir} is damaged ({reason}); run "
                                "`sqlite3 FILE 'PRAGMA integrity_check'` on its .sqlite files")
        if len(bad) == 2:  # the same line whichever file raised: a command says it once
            cp, rp = bad
            return DamagedDatabase(
                f"the checkpoint database {cp} and the results database {rp} are both "
                f"damaged; move them aside (mv {cp} {cp}.damaged && mv {rp} {rp}.damaged) and "
                "run again: every thread starts afresh and computes its rows again")
        return self._aside(bad[0], f"is damaged ({reason})")

    def _aside(self, path: Path, what_is_wrong: str) -> DamagedDatabase:
        """The error naming one of the two files, what is wrong with it, and the way out."""
        what = "checkpoint" if path == self.checkpoints_path else "results"
        after = ("every thread starts afresh (result rows are kept)" if what == "checkpoint"
                 else "finished threads recompute their rows when run again")
        return DamagedDatabase(
            f"the {what} database {path} {what_is_wrong}; move it aside (mv {path} "
            f"{path}.damaged) and run again: {after}"
        )

    def _require_file(self, path: Path) -> None:
        """Refuse a database path that is no file (a folder, a link to ``/dev/null``): SQLite
        said only "disk I/O error" or "unable to open database file", naming neither the file
        nor the way out.

        Raises:
            DamagedDatabase: naming ``path`` and what it is.
        """
        if kind := not_a_file(path):
            raise self._aside(path, f"is {kind}, not a database file")
        for side in (Path(f"{path}-wal"), Path(f"{path}-shm")):  # SQLite's own: nothing in it
            if kind := not_a_file(side):
                what = "checkpoint" if path == self.checkpoints_path else "results"
                raise DamagedDatabase(f"{side}, a file SQLite keeps beside the {what} database, "
                                      f"is {kind}; move it aside (mv {side} {side}.damaged) and "
                                      "run again: nothing is lost")

    @contextmanager
    def _reporting_damage(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.DatabaseError as exc:
            error = self.damaged(exc)
            if error is None:
                raise
            raise error from exc

    @contextmanager
    def checkpointer(self, *, read_only: bool = False) -> Iterator[Any]:
        """A ``SqliteSaver`` on ``checkpoints.sqlite`` (WAL, one connection shared by the graph's
        threads). ``read_only`` opens with ``mode=ro`` and yields None when the file or its
        ``checkpoints`` table is missing; damage is raised as :class:`DamagedDatabase`."""
        from langgraph.checkpoint.sqlite import SqliteSaver

        path = self.checkpoints_path
        self._require_file(path)
        if read_only and not path.exists():
            yield None
            return
        with self._reporting_damage():
            conn = connect(path, read_only=read_only)
            try:
                if why := shape_problem(conn, CHECKPOINT_TABLES):
                    raise self._aside(path, f"{why}: {FOREIGN}")
                saver = SqliteSaver(conn)
                if not read_only:
                    saver.setup()
                    _opened_files[self._key(path)] = file_id(path)
                elif has_table(conn, "checkpoints"):
                    saver.is_setup = True  # setup() would write (PRAGMA, CREATE, ALTER)
                else:
                    saver = None
                yield saver
            finally:
                conn.close()

    def vanished(self) -> str | None:
        """One line when ``checkpoints.sqlite`` (or the whole data dir) is gone, or is another
        file than the one this process opened (deleted and made again); else, the same of
        ``results.sqlite`` once a run holding a thread lock here opened it; else None."""
        return self._vanished(unopened_too=True)

    def _vanished(self, *, unopened_too: bool) -> str | None:
        """:meth:`vanished`; ``unopened_too`` False: a checkpoint database this process did not
        open for writing is not looked at (a results database is opened before it)."""
        gone = (f"the data dir {self.data_dir} (or its checkpoint database {CHECKPOINTS_DB}) "
                "was deleted during the run: its checkpoints, lock and run record are gone, so "
                "the run stopped; run the same command again to start over")
        path = self.checkpoints_path
        opened = _opened_files.get(self._key(path))
        if (unopened_too or opened is not None) and replaced(path, opened):
            return gone
        path = self.results_path
        kept = _opened_results.get(self._key(path))
        if kept is not None and replaced(path, kept[1]):
            if replaced(self.data_dir, None):  # the whole folder: its checkpoints went too
                return gone
            return (f"the results database {path} was deleted (or replaced) during the run: the "
                    "run record made at its start and any rows of the thread's earlier runs "
                    "are gone, so the run stopped rather than write into a new, empty one; run "
                    "the same command again to go on from its last checkpoint (a row it then "
                    "finds missing is named, and the command after it computes it again)")
        return None

    @contextmanager
    def results(self, *, read_only: bool = False) -> Iterator[ResultsStore | None]:
        """A :class:`SqliteResults` on ``results.sqlite``; ``read_only`` yields None when the
        file or its ``runs`` table is missing; damage is raised as :class:`DamagedDatabase`."""
        self._require_file(self.results_path)
        if read_only and not self.results_path.exists():
            yield None
            return
        running = not read_only and self._holds_a_lock()
        if running and (why := self._vanished(unopened_too=False)):  # SQLite would make it anew
            raise StorageVanished(why)
        with self._reporting_damage():
            # a run's data dir deleted under it is not made again by a write
            try:
                store = SqliteResults(self.results_path, read_only=read_only,
                                      make_folder=not running)
            except ForeignSchema as exc:
                raise self._aside(self.results_path, f"{exc}: {FOREIGN}") from None
            if running:  # the file the run's record is in: vanished() tells it replaced
                self._keep_results()
            if read_only and not has_table(store._conn, "runs"):
                store.close()
                yield None
                return
            with store:
                yield store

    @contextmanager
    def thread_lock(self, thread_id: str, *, read_only: bool = False, holder: str = "run"
                    ) -> Iterator[None]:
        """A non-blocking ``flock`` on ``<data dir>/locks/<sha8 of thread_id>.lock`` (the folder
        is created, unless ``read_only``: then a missing file means no run holds it, and an
        existing one is opened for reading, which ``flock`` takes too; the OS drops the lock
        with the process). Not POSIX: no lock at all. The holder writes ``holder`` into the
        file while it holds the lock, so a process refused the lock can say who has it."""
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not POSIX: run unlocked
            yield
            return
        path = self._lock_path(thread_id)
        if read_only and not path.is_file():
            yield
            return
        if not read_only:
            path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "r" if read_only else "a+") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                handle.seek(0)
                raise ThreadBusy.of(thread_id, holder=handle.read(16).strip() or None) from None
            key = str(path.resolve())
            if not read_only:
                st = os.fstat(handle.fileno())
                _held_locks[key] = (thread_id, (st.st_dev, st.st_ino))
                say_holder(handle, holder)
            try:
                yield
            finally:
                _held_locks.pop(key, None)
                if not self._holds_a_lock():  # the next run here may find it made anew
                    self._forget_results()
                if not read_only:
                    say_holder(handle, "")
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _keep_results(self) -> None:
        """Keep the results database just opened by a run (:data:`_opened_results`), unless
        one is kept already."""
        key = self._key(self.results_path)
        if key in _opened_results:
            return
        fd = os.open(self.results_path, os.O_RDONLY)
        st = os.fstat(fd)
        _opened_results[key] = (fd, (st.st_dev, st.st_ino))

    def _forget_results(self) -> None:
        """Let the kept results database go (:data:`_opened_results`): called once no run here
        holds a lock, so no connection of one is open (closing any descriptor of a file drops
        the process's POSIX locks on it, SQLite's own included)."""
        if (kept := _opened_results.pop(self._key(self.results_path), None)) is not None:
            os.close(kept[0])

    def _holds_a_lock(self) -> bool:
        """Whether this process holds a thread lock in this data dir (:meth:`thread_lock`)."""
        folder = self._key(self.data_dir / "locks") + os.sep
        return any(key.startswith(folder) for key in _held_locks)

    def lock_lost(self) -> str | None:
        """One line when a thread lock file this process holds in this data dir was deleted or
        replaced (a user clearing what looks like a stale lock): a second process would lock a
        new file and run the thread alongside this one, else None. A ``stat`` per lock held."""
        folder = self._key(self.data_dir / "locks")
        for key, (thread_id, locked) in list(_held_locks.items()):
            if os.path.dirname(key) != folder:
                continue
            try:
                if file_id(Path(key)) == locked:
                    continue
            except FileNotFoundError:
                pass
            except OSError:  # unreadable is not gone: other errors say what is wrong
                continue
            return (f"the lock file {key} of thread {thread_id!r} was deleted during the run, so "
                    "another process could run the thread alongside this one: the run stopped; "
                    "run the same command again to go on from its last checkpoint (a lock file "
                    "is never stale: the lock goes with the process that held it)")
        return None

    def _lock_path(self, thread_id: str) -> Path:
        return self.data_dir / "locks" / f"{sha8(thread_id)}.lock"

    def running_threads(self, thread_ids: Iterable[str]) -> set[str] | None:
        """The threads whose lock file a process holds a ``flock`` on, read from Linux's
        ``/proc/locks`` (no lock is taken); None where there is none (another OS)."""
        held = held_flocks()
        if held is None:
            return None
        out = set()
        for thread_id in thread_ids:
            try:
                found = os.stat(self._lock_path(thread_id))
            except OSError:  # no lock file: no run ever locked it here
                continue
            if (os.major(found.st_dev), os.minor(found.st_dev), found.st_ino) in held:
                out.add(thread_id)
        return out

    def thread_ids(self, saver: Any) -> list[str]:
        """:data:`~app.storage.base.ROOT_THREADS_SQL` on the saver's ``checkpoints`` table (its
        primary key index serves it); damage is raised as :class:`DamagedDatabase`."""
        if saver is None:
            return []
        with self._reporting_damage(), saver.cursor(transaction=False) as cur:
            cur.execute(ROOT_THREADS_SQL)
            return [row[0] for row in cur.fetchall()]

    def checkpoint_bytes(self, saver: Any = None) -> int:
        """Bytes of ``checkpoints.sqlite`` and its write-ahead log (``-wal``) on disk; with
        ``saver`` (a writable one of this storage) the log is first moved into the file
        (``PRAGMA wal_checkpoint(TRUNCATE)``), so the number is stable. The ``-shm`` WAL index
        holds no data and is not counted."""
        if isinstance(getattr(saver, "conn", None), sqlite3.Connection):
            with saver.lock:
                saver.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        path = self.checkpoints_path
        return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.is_file())
