"""Waiting out a server's ``Retry-After``, for every caller of one endpoint, and stopping the wait
when the run stops.

:class:`RetryAfterGate` is a time before which no request may go to one endpoint (a model
provider, a search API). Whoever sees a ``Retry-After`` (:func:`workers.errors.retry_after`)
holds the gate; every caller waits on it before its next request. The app fits every chat model
with it (``app/provider.py``); a worker that calls an HTTP API itself can do the same with
:func:`gate_for`.

A wait can be long (up to the run's patience), so it must not outlive the run: a node runs its
work inside :func:`stop_waiting_when` with the run's stop signal, and a wait in that context
raises :class:`workers.errors.RunCancelled` as soon as the run stops (Ctrl-C, a fatal error
elsewhere), instead of holding the process open until the window ends.

Source: RFC 9110 section 10.2.3 (Retry-After); the stop signal is ``workers.base.Cancellation``.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol

from workers.errors import RunCancelled

__all__ = ["RetryAfterGate", "gate_for", "pause", "stop_waiting_when"]

_SLICE = 0.1
"""Seconds between two looks at the stop signal while waiting."""


class _Stop(Protocol):
    cause: BaseException | None

    def is_set(self) -> bool: ...


_stop: ContextVar[_Stop | None] = ContextVar("research_pacing_stop", default=None)


@contextmanager
def stop_waiting_when(stop: _Stop | None) -> Iterator[None]:
    """Make every gate wait in this context (this thread, and the graphs and threads it starts)
    give up once ``stop.is_set()`` (e.g. ``workers.base.Cancellation``)."""
    token = _stop.set(stop)
    try:
        yield
    finally:
        _stop.reset(token)


def _check_stop(waiting_for: str = "the provider's Retry-After") -> None:
    stop = _stop.get()
    if stop is not None and stop.is_set():
        raise RunCancelled(f"the run is stopping: gave up waiting for {waiting_for}", stop.cause)


def pause(seconds: float, waiting_for: str = "a retry") -> None:
    """``time.sleep(seconds)`` that ends once the run stops (:func:`stop_waiting_when`): the
    wait before a retry (:func:`workers.retry.backoff`, up to 5 s) must not hold a Ctrl-C.

    Raises:
        workers.errors.RunCancelled: the run stopped before or while waiting.
    """
    deadline = time.monotonic() + max(0.0, seconds)
    while True:
        _check_stop(waiting_for)
        left = deadline - time.monotonic()
        if left <= 0:
            return
        time.sleep(min(left, _SLICE))


class RetryAfterGate:
    """A time before which no request may be sent to one endpoint.

    Example:
        >>> gate = RetryAfterGate()
        >>> gate.hold(0.05)
        >>> 0.0 < gate.remaining() <= 0.05
        True
        >>> gate.wait() >= 0.0 and gate.remaining() == 0.0
        True
    """

    def __init__(self, clock: Any = time.monotonic) -> None:
        self._clock = clock
        self._until = 0.0
        self._lock = threading.Lock()

    def hold(self, seconds: float) -> None:
        """No request before ``seconds`` from now (a later hold already set is kept)."""
        with self._lock:
            self._until = max(self._until, self._clock() + max(0.0, seconds))

    def remaining(self) -> float:
        """Seconds left in the window (0 when it is open)."""
        with self._lock:
            return max(0.0, self._until - self._clock())

    def wait(self) -> float:
        """Block until the window is open (it may be extended while waiting); return the seconds
        waited.

        Raises:
            workers.errors.RunCancelled: the run stopped while waiting (see
                :func:`stop_waiting_when`).
        """
        waited = 0.0
        while (left := self.remaining()) > 0:
            _check_stop()
            step = min(left, _SLICE)
            time.sleep(step)
            waited += step
        return waited

    async def await_open(self) -> float:
        """:meth:`wait` for async callers."""
        waited = 0.0
        while (left := self.remaining()) > 0:
            _check_stop()
            step = min(left, _SLICE)
            await asyncio.sleep(step)
            waited += step
        return waited


_gates: dict[tuple[str, str], RetryAfterGate] = {}
_gates_lock = threading.Lock()


def gate_for(provider: str, endpoint: str = "") -> RetryAfterGate:
    """The process's gate for one endpoint (e.g. ``("openai", base_url)``, ``("tavily", "")``):
    shared by every caller of it, since a rate limit is the account's, not one request's."""
    with _gates_lock:
        return _gates.setdefault((provider, endpoint), RetryAfterGate())
