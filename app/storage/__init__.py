"""Storage: where checkpoints, result rows and thread locks live, behind one small interface.

Two backends keep the same promise (one row per (thread_id, envelope_id), upserted; each
thread's latest report; a thread run by one process at a time; a run resumable from its last
checkpoint):

========== =================================================== ==============================
backend    checkpoints / results                               thread lock
========== =================================================== ==============================
SQLite     ``SqliteSaver`` in ``<data dir>/checkpoints.sqlite``,  ``flock`` on
(default)  rows in ``<data dir>/results.sqlite``               ``<data dir>/locks/<hash>.lock``
PostgreSQL ``PostgresSaver`` and the ``results``/``runs``      a lease row with a heartbeat
           tables in the database of ``RESEARCH_DATABASE_URL``  (:mod:`app.storage.lease`)
========== =================================================== ==============================

Use :func:`open_storage` and the :class:`Storage` methods; nothing else in the app branches on
the backend. Example::

    storage = open_storage(".data")                      # or open_storage(".data", url)
    with storage.thread_lock(thread_id), storage.checkpointer() as saver:
        graph = build_graph(cfg, checkpointer=saver)
    with storage.results() as store:
        store.upsert(envelopes, thread_id=thread_id, topic=topic)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.storage.base import (
    DamagedDatabase,
    Storage,
    StorageError,
    StorageLost,
    StorageUnreachable,
    StorageVanished,
    ThreadBusy,
    ThreadLockLost,
    TryLater,
    is_transient_storage_error,
    root_config,
)
from app.storage.results import ResultsStore

__all__ = [
    "DamagedDatabase", "ResultsStore", "Storage", "StorageError", "StorageLost",
    "StorageUnreachable", "StorageVanished", "ThreadBusy", "ThreadLockLost", "TryLater",
    "is_transient_storage_error", "open_storage", "root_config", "storage_of",
]

def open_storage(data_dir: Path | str, database_url: str | None = None,
                 direct_url: str | None = None) -> Storage:
    """The storage of a run: PostgreSQL when ``database_url`` is given, else the SQLite files of
    ``data_dir``. Opens no connection (each :class:`Storage` method does).

    Args:
        data_dir: the data dir (SQLite files and locks; with a URL it is not used here).
        database_url: ``postgresql://user:password@host:port/dbname``, or None/``""``.
        direct_url: the same database bypassing a connection pooler, for table creation and
            migrations (``RESEARCH_DATABASE_DIRECT_URL``); None: ``database_url``.

    Raises:
        ValueError: the URL is not a ``postgresql://`` (or ``postgres://``) URL
            (:func:`app.settings.checks.check_database_url`).
    """
    if database_url:
        from app.settings.checks import check_database_url  # the one owner of the URL check

        check_database_url(database_url)
        if direct_url:
            check_database_url(direct_url)
        from app.storage.postgres import PostgresStorage

        return PostgresStorage(database_url, direct_url)
    from app.storage.sqlite import SqliteStorage

    return SqliteStorage(data_dir)


def storage_of(settings: Any) -> Storage:
    """The storage of :class:`app.settings.config.Settings` (or anything with ``data_dir`` and
    ``database_url``, optionally ``database_direct_url``): PostgreSQL when ``database_url`` is
    set, else the SQLite files of ``data_dir``."""
    return open_storage(settings.data_dir, getattr(settings, "database_url", None),
                        getattr(settings, "database_direct_url", None))
