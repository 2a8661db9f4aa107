"""Rows written by a thread while the caller makes the next ones (issue 19, section 4).

The index build cuts every document into passages (Python, holding the GIL) and then has SQLite
index them in FTS5 (C, most of it run with the GIL released: the ``sqlite3`` module lets go of
it around each step). Written in batches by a second thread while the builder cuts the next
documents, the FTS5 insert runs on another core beside the chunking instead of after it: on
sqlite3-doc, the insert's 0.3 CPU s, after the pages are read, go off the build's critical path.

FTS5 ends a segment at each statement, so the index holds its terms, rows and ranking as one
insert would, in other data blocks; ``optimize`` merges them into one segment as before.

This module imports only the standard library.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Any, Generic, TypeVar

__all__ = ["BATCH_ROWS", "BatchWriter"]

Row = TypeVar("Row")

BATCH_ROWS = 2048
"""Rows handed to the writing thread at once: a few batches per manual (sqlite3-doc's 10,709
passages make six), each one statement for FTS5."""

_DONE: Any = object()


class BatchWriter(Generic[Row]):
    """A thread calling ``write(batch)`` (a list of rows, in the order added) for each
    ``batch`` (default :data:`BATCH_ROWS`) rows :meth:`add`-ed, and for the rest at :meth:`close`.

    Used as a context manager: leaving the block normally closes it; leaving it by an exception
    (an interrupt, a parse error) stops the thread after the batch it is writing, and writes
    nothing more. ``write`` runs in the thread alone (a ``sqlite3`` connection opened with
    ``check_same_thread=False``, not used by the caller until :meth:`close` returns).

    Raises:
        BaseException: what ``write`` raised (a full disk: ``sqlite3.OperationalError``), from
            the next :meth:`add` or from :meth:`close`; no batch is written after it.

    Example:
        >>> written = []
        >>> with BatchWriter(written.append, batch=2) as writer:
        ...     for row in "abcde":
        ...         writer.add(row)
        >>> written
        [['a', 'b'], ['c', 'd'], ['e']]
    """

    def __init__(self, write: Callable[[list[Row]], object], batch: int | None = None) -> None:
        self._write, self._size = write, BATCH_ROWS if batch is None else batch
        self._rows: list[Row] = []
        self._queue: queue.SimpleQueue[list[Row]] = queue.SimpleQueue()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="batch-writer", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while (rows := self._queue.get()) is not _DONE:
            if self._error is None:
                try:
                    self._write(rows)
                except BaseException as exc:  # noqa: BLE001 - raised in the caller's thread
                    self._error = exc

    def add(self, row: Row) -> None:
        """Queue ``row``; a full batch goes to the thread."""
        if self._error is not None:
            raise self._error
        self._rows.append(row)
        if len(self._rows) >= self._size:
            self._queue.put(self._rows)
            self._rows = []

    def close(self) -> None:
        """Write the rows left and wait for the thread to finish; raise what ``write`` raised."""
        if self._rows:
            self._queue.put(self._rows)
            self._rows = []
        self._stop()
        if self._error is not None:
            raise self._error

    def _stop(self) -> None:
        self._queue.put(_DONE)
        self._thread.join()

    def __enter__(self) -> BatchWriter[Row]:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if kind is None:
            self.close()
            return
        self._error = self._error or exc  # nothing more is written
        self._stop()
