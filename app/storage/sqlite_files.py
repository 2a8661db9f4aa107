"""Opening the app's SQLite files: WAL and a busy timeout for writers, ``mode=ro`` (or
``immutable=1`` where that cannot work) for readers, and telling a damaged file from a busy one.
Used by :mod:`app.storage.sqlite` for both of its databases.

Source: SQLite's URI filenames (https://sqlite.org/uri.html) and WAL mode
(https://sqlite.org/wal.html).
"""

from __future__ import annotations

import os
import sqlite3
import stat
import time
from pathlib import Path

from workers.sources.page_cache import bound_page_cache

__all__ = ["connect", "damaged_file", "is_damage", "not_a_file"]

_DAMAGE = ("malformed", "not a database", "file is encrypted")
"""What SQLite says when a file is damaged (SQLITE_CORRUPT, SQLITE_NOTADB)."""


def is_damage(exc: BaseException) -> bool:
    """Whether ``exc`` is SQLite saying a file is damaged (not busy, not missing)."""
    return isinstance(exc, sqlite3.DatabaseError) and any(m in str(exc) for m in _DAMAGE)


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
          (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"))


def not_a_file(path: Path) -> str | None:
    """What is at ``path`` when it is neither a regular file (a link to one is fine) nor
    missing, e.g. ``"a folder"``, ``"a link to /dev/null, a device"`` or a link into a folder
    that does not exist; None otherwise.

    Example:
        >>> not_a_file(Path("/")), not_a_file(Path("/no/such/file"))
        ('a folder', None)
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:  # missing: SQLite makes it (through a link, too, where its folder is)
        target = os.path.realpath(path)
        if os.path.islink(path) and not os.path.isdir(os.path.dirname(target)):
            # SQLite said only "unable to open database file"
            return f"a link to {target}, whose folder does not exist"
        return None
    kind = next((name for test, name in _KINDS if test(mode)), None)
    if kind is None:  # a regular file
        return None
    if os.path.islink(path):
        return f"a link to {os.path.realpath(path)}, {kind}"
    return kind


def connect(path: Path, *, read_only: bool = False, make_folder: bool = True
            ) -> sqlite3.Connection:
    """Open ``path`` for the app: WAL, 30 s busy timeout, usable from several threads, its page
    cache bounded (:func:`workers.sources.page_cache.bound_page_cache`).

    With ``read_only`` nothing is created or written (``mode=ro``); ``immutable=1`` is the way
    in when the folder is read-only and the WAL index (``-shm``) missing, or when a full disk
    cut the WAL index short ("disk I/O error") and the log holds nothing it would miss. When
    the log does hold frames there, the WAL index is kept in memory instead
    (:func:`_heap_index`), so ``threads`` and ``inspect`` read what a run stopped by a full
    disk saved (else they failed, saying to free space and "run the same command again").

    ``make_folder`` False: the file's folder is not created (a run's data dir deleted under
    it is not made again behind its back).

    Raises:
        sqlite3.Error: the file cannot be opened.
    """
    if not read_only:
        if make_folder:
            path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, timeout=30.0, check_same_thread=False)
        try:
            conn.execute("PRAGMA busy_timeout = 30000")
            bound_page_cache(conn)
            _ensure_wal(conn)
        except BaseException:
            conn.close()
            raise
        return conn
    uri = path.resolve().as_uri()
    conn = None
    try:
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=30.0,
                               check_same_thread=False)
        conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        return bound_page_cache(conn)
    except sqlite3.OperationalError as exc:
        if conn is not None:
            conn.close()  # its hold on the WAL index would keep the other ways out
        if os.access(path.parent, os.W_OK) and _io_error(exc) and not _empty_wal(path):
            return bound_page_cache(_heap_index(uri, exc))
        if os.access(path.parent, os.W_OK) and not (_io_error(exc) and _empty_wal(path)):
            raise
    return bound_page_cache(sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True,
                                            check_same_thread=False))


def _heap_index(uri: str, cause: sqlite3.OperationalError) -> sqlite3.Connection:
    """A reading connection to a WAL database whose WAL index (``-shm``) cannot be made or
    grown (a full disk) while its log holds frames the file alone lacks: SQLite keeps the
    index in heap memory when the connection is in ``EXCLUSIVE`` locking mode before its first
    read (https://sqlite.org/wal.html, "Use of WAL Without Shared-Memory"). That needs a
    connection that may write (``mode=rw``: never creates the file), so ``query_only`` refuses
    every write; it holds the file's lock until closed. Closing it may checkpoint the log into
    the file, as any last connection does (on a full disk that fails, and the log stays).

    Raises:
        sqlite3.OperationalError: ``cause``, when this way fails too.
    """
    conn = sqlite3.connect(f"{uri}?mode=rw", uri=True, timeout=30.0, check_same_thread=False)
    try:
        conn.execute("PRAGMA locking_mode = EXCLUSIVE")
        conn.execute("PRAGMA query_only = 1")
        conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
    except sqlite3.Error:
        conn.close()
        raise cause from None
    return conn


def _io_error(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` is SQLite's ``SQLITE_IOERR`` family (e.g. a WAL index it cannot grow)."""
    return (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF == sqlite3.SQLITE_IOERR


def _empty_wal(path: Path) -> bool:
    """Whether the write-ahead log of ``path`` is missing or empty: the file alone is whole."""
    try:
        return os.path.getsize(f"{path}-wal") == 0
    except OSError:
        return True


def _ensure_wal(conn: sqlite3.Connection, *, patience_s: float = 30.0) -> None:
    """Put the file in WAL mode, waiting out other connections doing the same.

    Switching the journal mode takes an exclusive lock and SQLite answers ``database is locked``
    at once, without the busy handler, when another connection holds a lock (four threads
    opening a fresh file lost that race about once in twenty). The mode is stored in the file,
    so a connection that finds it already WAL has nothing to do; otherwise it retries for up to
    ``patience_s`` seconds.

    Raises:
        sqlite3.OperationalError: still locked after ``patience_s``, or any other error.
    """
    deadline = time.monotonic() + patience_s
    delay = 0.005
    while True:
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() == "wal":
                return
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() + delay > deadline:
                raise
        time.sleep(delay)
        delay = min(delay * 2, 0.2)


def damaged_file(path: Path) -> bool:
    """Whether the SQLite file at ``path`` fails to open or its ``PRAGMA quick_check``; False
    when there is no file."""
    if not path.exists():
        return False
    try:
        conn = connect(path, read_only=True)
    except sqlite3.DatabaseError:
        return True
    try:
        return conn.execute("PRAGMA quick_check").fetchone()[0] != "ok"
    except sqlite3.DatabaseError:
        return True
    finally:
        conn.close()
