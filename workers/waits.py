"""Waits that end when the run stops: a node runs its work inside :func:`stop_waiting_when`
with the run's stop signal (``workers.base.Cancellation``), and every wait in that context
(:func:`pause`, :func:`wait_until`, :func:`holding`, :func:`result_within`, the gates of
:mod:`workers.pacing`) raises :class:`workers.errors.RunCancelled` as soon as the run stops
(Ctrl-C, SIGTERM, a fatal error elsewhere), instead of holding the process open until the
wait would have ended (a Retry-After window, a rate limiter's token, a worker slot).

A wait sleeps on the stop signal itself where it can (:func:`sleep_or_stop`; the worker slots,
:class:`Slots`, are woken by it), so a thousand waiting threads cost nothing until one may go
on. A blocking call that cannot be told to stop (``Semaphore.acquire()``, LangChain's
``InMemoryRateLimiter.acquire()``) is never made inside a run: it is sliced, or polled without
blocking, with a look at the stop signal in between.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol, TypeVar

from workers.errors import RunCancelled

__all__ = ["ANNOUNCED_WAIT", "STOP_SLICE", "Slots", "announce_wait", "announcing_waits",
           "await_until", "check_stop", "holding", "pause", "result_within", "sleep_or_stop",
           "stop_waiting_when", "wait_until"]

ANNOUNCED_WAIT = 2.0
"""Seconds from which a wait is said (:func:`announce_wait`): a retry interval, a
``Retry-After`` or a rate limit's backoff of up to 600 s was once silent, while the
default retry waits (0.5 s, then 1 s) pass without a line."""

_Result = TypeVar("_Result")

STOP_SLICE = 0.1
"""Seconds between two looks at the stop signal while polling (a rate limiter's token, a
semaphore other than :class:`Slots`, a future's result, a stop signal that cannot be waited
on)."""


class _Stop(Protocol):
    cause: BaseException | None

    def is_set(self) -> bool: ...


_stop: ContextVar[_Stop | None] = ContextVar("research_pacing_stop", default=None)
_writer: ContextVar[Callable[[Any], None] | None] = ContextVar("research_wait_writer",
                                                               default=None)


@contextmanager
def announcing_waits(writer: Callable[[Any], None] | None) -> Iterator[None]:
    """Say every long wait in this context (this thread, and the graphs and threads it starts)
    on ``writer``: a node's ``runtime.stream_writer`` (LangGraph's ``custom`` stream), which
    :func:`announce_wait` writes to."""
    token = _writer.set(writer)
    try:
        yield
    finally:
        _writer.reset(token)


def announce_wait(seconds: float, waiting_for: str,
                  writer: Callable[[Any], None] | None = None) -> None:
    """Say once, before it starts, that the run waits ``seconds`` ``waiting_for`` (e.g. "for
    the Retry-After openai:gpt-4.1-mini asked for"): ``{"waiting": {"seconds", "for"}}`` on
    ``writer`` (default: the one of :func:`announcing_waits`), which the CLI prints as one
    ``waiting`` line. A wait under :data:`ANNOUNCED_WAIT` seconds, or outside a run, is not
    said; a writer that fails is ignored (the wait matters, not its line)."""
    write = writer or _writer.get()
    if write is None or seconds < ANNOUNCED_WAIT:
        return
    with contextlib.suppress(Exception):
        write({"waiting": {"seconds": round(seconds, 1), "for": waiting_for}})


@contextmanager
def stop_waiting_when(stop: _Stop | None) -> Iterator[None]:
    """Make every gate wait in this context (this thread, and the graphs and threads it starts)
    give up once ``stop.is_set()`` (e.g. ``workers.base.Cancellation``)."""
    token = _stop.set(stop)
    try:
        yield
    finally:
        _stop.reset(token)


def check_stop(waiting_for: str = "the provider's Retry-After") -> None:
    stop = _stop.get()
    if stop is not None and stop.is_set():
        raise RunCancelled(f"the run is stopping: gave up waiting for {waiting_for}", stop.cause)


def sleep_or_stop(seconds: float) -> None:
    """Sleep up to ``seconds``, ending early once the run stops: on the stop signal itself when
    it can be waited on (``workers.base.Cancellation.wait``), else for at most
    :data:`STOP_SLICE`, so the caller looks at the stop again. The caller loops until its own
    deadline and calls :func:`check_stop`."""
    wait = getattr(_stop.get(), "wait", None)
    if wait is not None:
        wait(seconds)
    else:
        time.sleep(min(seconds, STOP_SLICE))


def pause(seconds: float, waiting_for: str = "a retry") -> None:
    """``time.sleep(seconds)`` that ends once the run stops (:func:`stop_waiting_when`): the
    wait before a retry (:func:`workers.retry.backoff`, up to 5 s) must not hold a Ctrl-C.

    Raises:
        workers.errors.RunCancelled: the run stopped before or while waiting.
    """
    deadline = time.monotonic() + max(0.0, seconds)
    while True:
        check_stop(waiting_for)
        left = deadline - time.monotonic()
        if left <= 0:
            return
        sleep_or_stop(left)


def wait_until(ready: Callable[[], bool], waiting_for: str, every: float = STOP_SLICE) -> None:
    """Call ``ready()`` until it returns True, ``every`` seconds apart (0: at once; ``ready``
    then blocks for a while itself), giving up once the run stops (:func:`stop_waiting_when`).

    For a wait whose end another object decides (a rate limiter's token, a semaphore's slot)
    and whose own blocking call would not end when the run stops.

    Raises:
        workers.errors.RunCancelled: the run stopped before or while waiting.
    """
    while True:
        check_stop(waiting_for)
        if ready():
            return
        if every > 0:
            pause(every, waiting_for)


async def await_until(ready: Callable[[], bool], waiting_for: str,
                      every: float = STOP_SLICE) -> None:
    """:func:`wait_until` for async callers (``ready`` must not block).

    Raises:
        workers.errors.RunCancelled: the run stopped before or while waiting.
    """
    while True:
        check_stop(waiting_for)
        if ready():
            return
        await asyncio.sleep(max(every, 0.001))


class Slots:
    """How many of a run's workers work at once: a counting semaphore (``acquire``/``release``,
    as ``threading.BoundedSemaphore``) whose waiters sleep until a slot frees or ``stop`` is set,
    never waking on a timer.

    Every task of a superstep starts at once in LangGraph's thread pool (128 threads) and waits
    here for one of ``count`` slots. Woken every :data:`STOP_SLICE` to look at the stop signal,
    the waiting threads of a 1,200-task run took about a fifth of its time (37.2 and 40.7 s
    against 30.9 and 32.5 s, scripts/bench_scale.py, old and new alternated); now
    :meth:`workers.base.Cancellation.on_set` wakes them instead.

    Example:
        >>> slots = Slots(1)
        >>> slots.acquire(), slots.acquire(blocking=False)
        (True, False)
        >>> slots.release(); slots.acquire(blocking=False)
        True

    Raises:
        ValueError: ``count`` below 1; :meth:`release` of a slot never taken.
    """

    def __init__(self, count: int, stop: Any = None) -> None:
        if count < 1:
            raise ValueError(f"Slots needs at least one slot, got {count}")
        # An RLock: the stop may be set by a signal handler in a thread that holds it.
        self._cond = threading.Condition(threading.RLock())
        self._count = self._free = count
        self._stop = stop
        if stop is not None:
            stop.on_set(self._wake)

    def _wake(self) -> None:
        with self._cond:
            self._cond.notify_all()

    def acquire(self, blocking: bool = True, timeout: float | None = None) -> bool:
        """Take a slot: at once if one is free, else (``blocking``) once one frees, within
        ``timeout`` seconds (None: no limit) or until the stop is set. False if none was
        taken."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while self._free == 0:
                if not blocking or (self._stop is not None and self._stop.is_set()):
                    return False
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._cond.wait(left)
            self._free -= 1
            return True

    def release(self) -> None:
        """Give a slot back, waking one waiter."""
        with self._cond:
            if self._free >= self._count:
                raise ValueError("Slots released more often than acquired")
            self._free += 1
            self._cond.notify()

    def wakes_on(self, stop: Any) -> bool:
        """True when ``stop`` is the stop signal these slots were given (both None included):
        setting it wakes their waiters."""
        return stop is self._stop


@contextmanager
def holding(slot: threading.Semaphore | Slots | None, waiting_for: str) -> Iterator[None]:
    """``with slot:`` whose wait for a free slot ends once the run stops
    (:func:`stop_waiting_when`); None holds nothing. :class:`Slots` given the same stop sleep
    until a slot frees or the stop; any other semaphore is polled every :data:`STOP_SLICE`.

    Raises:
        workers.errors.RunCancelled: the run stopped while waiting for a slot.
    """
    if slot is None:
        yield
        return
    if isinstance(slot, Slots) and slot.wakes_on(_stop.get()):
        if not slot.acquire():
            check_stop(waiting_for)  # it gives up only once that stop is set: this raises
    else:
        wait_until(lambda: slot.acquire(timeout=STOP_SLICE), waiting_for, every=0)
    try:
        yield
    finally:
        slot.release()


def result_within(future: Future[_Result], timeout: float, waiting_for: str) -> _Result:
    """``future.result(timeout)`` that gives up once the run stops (:func:`stop_waiting_when`):
    an MCP tool call may wait up to its timeout (30 s), which must not hold a Ctrl-C.

    Raises:
        workers.errors.RunCancelled: the run stopped before or while waiting.
        concurrent.futures.TimeoutError: no result within ``timeout`` seconds.
    """
    deadline = time.monotonic() + max(0.0, timeout)
    while True:
        check_stop(waiting_for)
        left = deadline - time.monotonic()
        try:
            return future.result(max(0.0, min(left, STOP_SLICE)))
        except FutureTimeout:
            if left <= STOP_SLICE:
                raise


