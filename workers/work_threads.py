"""The threads a worker's own work runs on: a few, shared by every run of the process, instead
of whichever of LangGraph's pool threads took the task.

A run gives LangGraph a pool of 128 threads (``app.runs.run.THREAD_POOL_SIZE``, sized so a
finished task's ``put_writes`` never queues behind tasks waiting for a worker slot,
docs/durability.md §1), and a superstep of more tasks than that takes every one of them. While
a slot of the run's limiter bounds the work to ``--max-concurrency`` workers at once, any pool
thread could be the one holding it, so over a run all 128 threads did the work: each agent's
deep call stack, its model's and the corpus search's allocations, freed there. glibc serves a
thread from one of up to 8 malloc arenas per core, and each arena keeps what was freed in it:
at 1,200 tasks, 15 arenas of 1.6-3.4 MB each (docs/deploy.md, "Scale, measured"). Here the work
goes to a thread of :data:`WORK_THREADS`, which starts one only when none is idle, so it holds
as many threads as workers ever ran at once in the process; the pool thread that took the task
only waits for it.

The work runs in a copy of the caller's context (:func:`contextvars.copy_context`): LangGraph's
config and stream writer, the run's stop signal (:func:`workers.waits.stop_waiting_when`), the
token tally and the task's ``as_of`` reach it as they reached the caller's thread.
"""

from __future__ import annotations

import contextvars
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["WORK_THREADS", "WorkThreads", "on_work_thread"]

T = TypeVar("T")


class WorkThreads:
    """Threads that run one call at a time each, started only when none is idle. A thread is
    idle again *before* its caller gets the result, so a caller that then lets the next one
    start (a worker slot freed) finds it idle: the threads never outnumber the calls that ran
    at once. Daemon threads: an idle one holds no exit."""

    def __init__(self, name: str = "research-work") -> None:
        self._name = name
        self._lock = threading.Lock()
        self._idle: list[queue.SimpleQueue] = []  # each idle thread's inbox
        self.started = 0
        """How many threads were started (for the tests)."""

    def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on an idle thread (a new one if none is), this thread waiting; returns
        what it returns, raises what it raises (``BaseException`` too, its traceback kept)."""
        with self._lock:
            inbox = self._idle.pop() if self._idle else None
            if inbox is None:
                self.started += 1
                inbox = queue.SimpleQueue()
                threading.Thread(target=self._serve, args=(inbox,), daemon=True,
                                 name=f"{self._name}-{self.started}").start()
        outbox: queue.SimpleQueue = queue.SimpleQueue()
        inbox.put((fn, args, outbox))
        ok, value = outbox.get()
        if ok:
            return value
        try:
            raise value
        finally:
            del value  # no cycle through the traceback's frames

    def _serve(self, inbox: queue.SimpleQueue) -> None:
        while True:
            fn, args, outbox = inbox.get()
            try:
                reply = (True, fn(*args))
            except BaseException as exc:  # handed to the caller, who raises it
                reply = (False, exc)
            fn = args = None  # nothing of the call kept while idle
            with self._lock:
                self._idle.append(inbox)
            outbox.put(reply)
            reply = outbox = None


WORK_THREADS = WorkThreads()
"""The threads workers' work runs on, one set per process."""


def on_work_thread(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` run on a thread of :data:`WORK_THREADS` in a copy of this thread's context,
    this thread waiting for it (what :func:`workers.node_steps.call_worker` does with a
    worker's ``run`` once it holds a slot)."""
    return WORK_THREADS.call(contextvars.copy_context().run, fn, *args)
