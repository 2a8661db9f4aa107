"""The storage contract: what every backend (SQLite files, PostgreSQL) gives the rest of the app.

A :class:`Storage` is a cheap description of *where* a run's data lives; it holds no connection.
Each of its context managers opens what it needs and closes it on exit:

* :meth:`Storage.checkpointer` -- a LangGraph checkpointer (``SqliteSaver`` or ``PostgresSaver``);
* :meth:`Storage.results` -- the results database (:class:`app.storage.results.ResultsStore`):
  one row per (thread_id, envelope_id), written by upsert;
* :meth:`Storage.thread_lock` -- one process at a time per thread, released when the process
  dies (``flock``; on PostgreSQL a lease row, see :mod:`app.storage.lease`);

plus :meth:`Storage.thread_ids` and :meth:`Storage.checkpoint_bytes` for ``threads``, ``inspect``,
``prune`` and the benchmarks. ``read_only=True`` opens without creating or writing anything
(``threads`` and ``inspect`` on a read-only data dir).

Source of the idea: LangGraph's checkpointer contract (``BaseCheckpointSaver``) is one interface
over several databases; the results database follows it.
"""

from __future__ import annotations

import sqlite3
import sys
from abc import ABC, abstractmethod
from collections.abc import Iterable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.storage.results import ResultsStore

__all__ = [
    "DamagedDatabase", "ROOT_THREADS_SQL", "Storage", "StorageError", "StorageLost",
    "StorageUnreachable", "StorageVanished", "ThreadBusy", "ThreadLockLost", "TryLater",
    "is_transient_storage_error", "root_config",
]

ROOT_THREADS_SQL = ("SELECT thread_id FROM checkpoints WHERE checkpoint_ns = '' "
                    "GROUP BY thread_id ORDER BY MIN(checkpoint_id)")
"""The threads with a root checkpoint, oldest first, read from the saver's ``checkpoints``
table: LangGraph's API has no thread listing, and ``list(None)`` would load every checkpoint.
``SqliteSaver`` and ``PostgresSaver`` name the table and its columns alike."""


def root_config(thread_id: str) -> dict[str, Any]:
    """The config of ``thread_id``'s root namespace (``checkpoint_ns=""``, not a subgraph's), as
    LangGraph's ``get_tuple`` and ``list`` take it: the latest root checkpoint, or all of them.

    Example::

        saver.get_tuple(root_config("t-1"))  # None when the thread has no checkpoint
    """
    return {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}


class StorageError(RuntimeError):
    """The storage cannot be used (damaged file, unreachable server); the message is one line
    that names the file or server and the way out."""


class DamagedDatabase(StorageError):
    """A database file is damaged (truncated, overwritten); the message names it and says how
    to get going again. Other threads or the other database may still be readable."""


class StorageVanished(StorageError):
    """The data dir, or its checkpoint or results database, was deleted (or replaced) while a
    run used it: SQLite goes on writing to the unlinked file (or makes a new, empty one), so the
    run would finish and claim success with its checkpoints, lock or run record gone. The run
    stops instead (exit 1)."""


class ThreadLockLost(StorageVanished):
    """The thread lock this process held was lost while its run went (SQLite: the lock file
    deleted or replaced; PostgreSQL: the lease expired while the process was suspended, and
    another process took it): another process may be running the thread, so this run stops
    before it runs or writes more, and records nothing (exit 1). Else both processes ran the
    same tasks and both exited 0."""


class TryLater(StorageError):
    """The storage cannot be used right now, for a while: in use by another process
    (:class:`ThreadBusy`), out of reach (:class:`StorageUnreachable`) or gone away mid-run
    (:class:`StorageLost`). Nothing was done (or what was is kept), and the same command works
    once that is over (the CLI exits 75, ``EX_TEMPFAIL``)."""


class StorageLost(TryLater):
    """The database went away while a run used it (a server restarted or shut down, the
    connection dropped): the message names the server and the cause, says what of the run was
    written (result rows, the report) and what was not (the last checkpoint), and how to go on
    (the same command again resumes from the last checkpoint that was saved). Try later (exit
    75), as the same server out of reach at the next connection is (:class:`StorageUnreachable`):
    which of the two a run meets is a matter of timing."""


class StorageUnreachable(TryLater):
    """The database server cannot be reached right now (the connection refused or timed out,
    the server starting up, shutting down or out of connection slots, a pooler that cannot
    reach it): every command's one line names the server and the cause, exit 75 (trial 58,
    F4). A server that answers and refuses (a wrong password, no such database) is no such
    thing: a :class:`StorageError`, exit 1."""


class ThreadBusy(TryLater):
    """Another process is running this thread right now (exit 75: the input was fine, the
    thread is in use; run the command again once the other process is done)."""

    thread_id: str | None = None
    """The thread (set by :meth:`of`)."""

    brief: bool = False
    """The holder is a short command (``prune``): the only advice is to try again in a moment
    (a new thread, ``--fresh``, would abandon this one's rows for a lock held a second)."""

    @classmethod
    def of(cls, thread_id: str, *, retry_in: float | None = None,
           holder: str | None = None) -> ThreadBusy:
        """The error every backend's :meth:`Storage.thread_lock` raises for ``thread_id``: one
        line naming the thread and the ways out; ``retry_in`` (seconds, PostgreSQL's lease)
        says how long until a killed holder's lock expires; ``holder`` is what the holder said
        it is, when it could be read (``"prune"``: a user was told to wait for a run, or use
        ``--fresh``, while prune held the lock for a second)."""
        if holder == "prune":
            busy = cls(f"thread {thread_id!r} is being pruned by another process (prune "
                       "compacts its checkpoints, which takes a moment); try again in a moment")
            busy.thread_id, busy.brief = thread_id, True
            return busy
        wait = "wait for it"
        if retry_in is not None:
            wait += (f" (if it was killed, its lease expires in {max(1, round(retry_in))} s;"
                     " then resume)")
        # No "--fresh" here: only ``research`` has it (the CLI adds it there); ``resume`` and
        # ``review`` refuse the flag.
        busy = cls(f"thread {thread_id!r} is being run by another process; {wait}")
        busy.thread_id = thread_id
        return busy


def is_transient_storage_error(exc: BaseException) -> bool:
    """True for a busy or briefly unavailable database, worth a retry (``RetryPolicy.retry_on``):
    ``sqlite3.OperationalError`` (locked, busy) or ``psycopg.OperationalError`` (connection lost).

    A damaged file (``sqlite3.DatabaseError``), a constraint or a programming error is not.
    """
    if isinstance(exc, sqlite3.OperationalError):
        return True
    psycopg = sys.modules.get("psycopg")  # only loaded when PostgreSQL is in use
    return psycopg is not None and isinstance(exc, psycopg.OperationalError)


class Storage(ABC):
    """Where checkpoints and result rows live. Open one with :func:`app.storage.open_storage`.

    Attributes:
        label: what to call it in messages: the data dir, or the URL without its password.
    """

    label: str

    @abstractmethod
    def checkpointer(self, *, read_only: bool = False) -> AbstractContextManager[Any]:
        """A LangGraph checkpointer, set up (tables created) unless ``read_only``; closed on exit.

        With ``read_only`` and nothing stored yet it yields None.

        Raises:
            DamagedDatabase: the database file is damaged.
            StorageError: the database cannot be reached.
        """

    @abstractmethod
    def results(self, *, read_only: bool = False
                ) -> AbstractContextManager[ResultsStore | None]:
        """The results database; closed on exit. With ``read_only`` and no database yet it
        yields None (nothing is created).

        Raises:
            DamagedDatabase: the database file is damaged.
            StorageError: the database cannot be reached.
        """

    @abstractmethod
    def thread_lock(self, thread_id: str, *, read_only: bool = False, holder: str = "run"
                    ) -> AbstractContextManager[None]:
        """Hold an exclusive, non-blocking lock on ``thread_id`` for the life of a run.

        Two processes continuing the same checkpoint at once would both run its tasks and
        interleave its history; rows would stay unique (upserts) but the work would be done
        twice. The lock dies with the process (SIGKILL leaves no stale lock). With
        ``read_only`` (``prune --dry-run``) a file backend creates nothing: a thread without a
        lock file is not being run (a run makes the file before it locks it). ``holder`` says
        what holds it (``"run"``, ``"prune"``), for the line another process is refused with.

        Raises:
            ThreadBusy: another process holds it (named by its ``holder`` when known).
        """

    def running_threads(self, thread_ids: Iterable[str]) -> set[str] | None:
        """Those of ``thread_ids`` whose :meth:`thread_lock` a live process holds now, found
        without taking any lock: a reader that took one, even for a moment, would make a run
        starting then exit 75. None: this storage cannot tell (a killed run and a live one
        then look alike).

        Raises:
            StorageError: the database cannot be reached.
        """
        return None

    def vanished(self) -> str | None:
        """One line saying the storage was deleted under this process (the data dir, or its
        checkpoint or results database, gone or replaced since this process opened it), else
        None. Cheap (a ``stat`` or two): called at every progress event of a run. A server
        backend: always None."""
        return None

    def lock_lost(self) -> str | None:
        """One line when a :meth:`thread_lock` this process holds is no longer its own (another
        process could take the thread), else None. Called at every progress event of a run
        (after :meth:`vanished`), so cheap while the lock is sound. Default: None (never lost).
        """
        return None

    def lost(self) -> StorageVanished | None:
        """The error that stops a run whose storage is no longer its own, or None: the data
        dir, checkpoint or results database deleted (:meth:`vanished`), or the thread lock lost
        (:meth:`lock_lost`, :class:`ThreadLockLost`: another process may run the thread)."""
        if why := self.vanished():
            return StorageVanished(why)
        if why := self.lock_lost():
            return ThreadLockLost(why)
        return None

    def went_away(self, exc: BaseException) -> str | None:
        """The cause, in a few words, when ``exc`` says the database went away under the run
        (a server restart ends every connection), else None. A file backend: always None
        (a deleted data dir is :meth:`vanished`)."""
        return None

    @abstractmethod
    def thread_ids(self, saver: Any) -> list[str]:
        """The threads with at least one root checkpoint in ``saver`` (from
        :meth:`checkpointer`), oldest first; ``[]`` for None."""

    @abstractmethod
    def checkpoint_bytes(self, saver: Any = None) -> int:
        """Bytes the checkpoints take in the database (0 if none): for ``prune`` and the
        benchmarks.

        Args:
            saver: an open checkpointer of this storage (:meth:`checkpointer`), or None; a
                backend that buffers writes outside its files flushes them through it first, so
                the number is stable.
        """

    def has_thread(self, saver: Any, thread_id: str) -> bool:
        """Whether ``thread_id`` has a root checkpoint in ``saver`` (LangGraph's ``get_tuple``;
        False for None). Whether a *thread* exists (a checkpoint or a recorded run) is
        :func:`app.runs.threads.thread_exists`."""
        if saver is None:
            return False
        return saver.get_tuple(root_config(thread_id)) is not None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.label!r})"

