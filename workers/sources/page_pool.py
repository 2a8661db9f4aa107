"""A folder's HTML pages read on every core: the process building the index parses them from the
front, in order, while helper processes parse them from the back, until the two meet.

Threads could not share the work: lxml frees the GIL while it parses and transforms, but the
rest of reading a page (the furniture tests, the sections, the page-of-links judgement) is
Python, and two threads took turns at it (sqlite3-doc's 766 pages: 6.6 CPU s with two threads,
4.0 with one, and no faster). A helper is a new interpreter (``sys.executable``, the builder's
``sys.path``) that imports the readers (about 0.3 CPU s, on the other core while the builder
parses) and reads, from a pipe, one page's path at a time, and writes back what
:func:`file_result` gives, pickled: the documents, the counts and the notes are the same
whoever parsed a page, and the builder takes them in the files' order. Not ``multiprocessing``:
a fork of a process whose other threads (the graph's) may hold a lock can hang, and its
``spawn`` runs the caller's main script again in each child (a script without a ``__main__``
guard built the index once per helper). A thread of the builder's serves each helper the last
pages no one has taken, the next one queued in its pipe (:data:`IN_FLIGHT`); a page not yet
given out when the builder reaches it is the builder's, so neither waits on the other but for
the pages given out; a helper that cannot start or dies leaves
every page it did not return to the builder. Source of the idea: the ``multiprocessing`` docs
("Contexts and start methods": why fork is unsafe with threads, and spawn's main module).

This module imports only the standard library and this package.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import threading
from collections import Counter, deque
from pathlib import Path
from typing import BinaryIO

from workers.sources.base import RawDoc
from workers.sources.fileread import file_docs

__all__ = ["HELPERS", "IN_FLIGHT", "MIN_PARALLEL_PAGES", "PagePool", "file_result"]

HELPERS = max(0, min(3, (os.cpu_count() or 1) - 1))
"""Helper processes that parse a folder's pages beside the builder: one per other core."""

MIN_PARALLEL_PAGES = 16
"""Fewer HTML pages than this are read by the builder alone: a helper costs more to start."""

IN_FLIGHT = 2
"""Pages a helper is given ahead: the next waits in its pipe while it parses one, so it never
waits on the builder's serving thread, which needs the GIL the builder's parsing holds (up to
its 5 ms switch interval, ``sys.getswitchinterval``, per page of a few ms)."""

FileResult = tuple[list[RawDoc], Counter[str], list[str]]
"""One file's documents, with its own skip counts and notes."""

def file_result(rel: str, path: Path, max_file_bytes: int, rels: frozenset[str]) -> FileResult:
    """:func:`~workers.sources.fileread.file_docs` of one file with its own counts and notes."""
    skipped: Counter[str] = Counter()
    notes: list[str] = []
    return list(file_docs(rel, path, skipped, notes, max_file_bytes, rels=rels)), skipped, notes


_BOOT = ("import pickle, sys; sys.path[:] = pickle.load(sys.stdin.buffer); "
         "from workers.sources.page_pool import serve; serve()")
"""What a helper runs: the builder's ``sys.path``, then :func:`serve`."""


def serve(requests: BinaryIO | None = None, answers: BinaryIO | None = None) -> None:
    """A helper's loop: read ``(max_file_bytes, rels)`` from ``requests`` (default: stdin), then
    one ``(rel, path)`` at a time, and write each one's :func:`file_result` to ``answers``
    (default: stdout, which nothing else writes to: the helper's own prints go to stderr),
    pickled; returns when ``requests`` ends."""
    if requests is None or answers is None:
        requests, answers = sys.stdin.buffer, os.fdopen(os.dup(1), "wb")
        os.dup2(2, 1)
    shared = pickle.load(requests)
    while True:
        try:
            rel, path = pickle.load(requests)
        except EOFError:
            return
        pickle.dump(file_result(rel, path, *shared), answers, pickle.HIGHEST_PROTOCOL)
        answers.flush()


class PagePool:
    """The pages of a folder's files parsed ahead by ``helpers`` processes, last page first.

    Args:
        files: ``(ref path, path, ...)`` of the folder's files.
        pages: the indexes in ``files`` of the HTML pages the helpers may parse, ascending.
        max_file_bytes, rels: as :func:`file_result` takes them.
        helpers: how many helper processes (none: every :meth:`take` is None).

    Use :meth:`take` for each file's index in order, then :meth:`close` (or ``with``)."""

    def __init__(self, files: list, pages: list[int], max_file_bytes: int,
                 rels: frozenset[str], helpers: int = HELPERS) -> None:
        self._files = files
        self._left: deque[int] = deque(pages)  # given out from the right, taken from the left
        self._busy: set[int] = set()
        self._done: dict[int, FileResult] = {}
        self._cond = threading.Condition()
        self._closed = False
        self._procs: list[subprocess.Popen[bytes]] = []
        self._threads: list[threading.Thread] = []
        if len(pages) < MIN_PARALLEL_PAGES or not sys.executable:  # (an embedded Python)
            return
        for _n in range(helpers):
            try:
                proc = subprocess.Popen([sys.executable, "-c", _BOOT], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            except OSError:
                break  # no helper: the builder reads what none took
            self._procs.append(proc)
            thread = threading.Thread(target=self._serve, args=(proc, (max_file_bytes, rels)),
                                      name="page-helper", daemon=True)
            self._threads.append(thread)
            thread.start()

    def _serve(self, proc: subprocess.Popen[bytes], shared: tuple[int, frozenset[str]]) -> None:
        """Give ``proc`` the last pages no one has taken, :data:`IN_FLIGHT` at a time, until
        none is left, and keep what it sends back; a helper that fails stops, its pages left to
        the builder."""
        assert proc.stdin is not None and proc.stdout is not None
        asked: deque[int] = deque()  # given to the helper, in order, not yet answered
        try:
            pickle.dump(sys.path, proc.stdin)
            pickle.dump(shared, proc.stdin)
            while True:
                with self._cond:
                    more = [] if self._closed else [
                        self._left.pop() for _n in range(IN_FLIGHT - len(asked)) if self._left]
                    self._busy.update(more)
                    asked.extend(more)
                for page in more:
                    pickle.dump(tuple(self._files[page][:2]), proc.stdin)
                if not asked:
                    return
                proc.stdin.flush()
                result = pickle.load(proc.stdout)
                with self._cond:
                    page = asked.popleft()
                    self._busy.discard(page)
                    self._done[page] = result
                    self._cond.notify_all()
        except Exception:  # noqa: BLE001 - a helper that died or wrote nonsense: no more
            with self._cond:
                self._busy.difference_update(asked)  # read by the builder
                self._cond.notify_all()
        finally:
            try:
                proc.stdin.close()  # the helper ends
            except OSError:
                pass

    def take(self, i: int) -> FileResult | None:
        """What a helper read of ``files[i]``, waiting for it if one is reading it; None when
        none has it (not a page, not given out yet, or its helper failed): the caller reads
        it."""
        with self._cond:
            if self._left and self._left[0] == i:
                self._left.popleft()
                return None
            while i in self._busy:
                self._cond.wait()
            return self._done.pop(i, None)

    def close(self) -> None:
        """Stop the helpers (a page one is reading is dropped) and wait for them; idempotent."""
        with self._cond:
            self._closed = True
            self._left.clear()
            self._done.clear()
            busy = bool(self._busy)
        for proc in self._procs if busy else ():
            proc.kill()  # its page is not wanted
        for thread in self._threads:
            thread.join()
        for proc in self._procs:
            proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()
        self._procs, self._threads = [], []

    def __enter__(self) -> PagePool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
