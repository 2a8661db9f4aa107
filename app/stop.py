"""How a run stops on a signal: Ctrl-C (SIGINT) and SIGTERM (``kill``, ``docker stop``,
systemd) stop it the same way.

While :func:`stop_on_signals` is active, either signal sets the run's stop signal at once (so
workers still queued for a slot, or waiting out a provider's ``Retry-After``, give up instead of
running) and then raises in the main thread: ``KeyboardInterrupt`` for SIGINT, :class:`Terminated`
(a ``KeyboardInterrupt``) for SIGTERM. LangGraph raises it out of ``stream`` once the superstep's
running tasks have finished; the run is recorded as ``interrupted`` and the same command resumes
it. A second signal of either kind is ignored, so the cleanup finishes.

Without this, SIGTERM ended the process on the spot (the run left marked ``running``), and
Ctrl-C let queued workers start and spend their calls before the run stopped.

Source of the idea: Python's ``signal`` docs (handlers run in the main thread, between bytecodes)
and how the interpreter turns SIGINT into ``KeyboardInterrupt``.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

__all__ = ["Terminated", "ignore_signals", "stop_on_signals"]

_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Terminated(KeyboardInterrupt):
    """SIGTERM received during a run: stopped the way Ctrl-C stops it (exit code 143)."""


class _Stop(Protocol):
    def set(self, cause: BaseException | None = None) -> None: ...


def ignore_signals() -> None:
    """Ignore further SIGINT and SIGTERM (main thread only): the run is already stopping, and
    ``uv run`` forwards the terminal's Ctrl-C to the process a second time."""
    if threading.current_thread() is threading.main_thread():
        for signum in _SIGNALS:
            signal.signal(signum, signal.SIG_IGN)


@contextmanager
def stop_on_signals(stop: _Stop | None = None) -> Iterator[None]:
    """While the block runs, SIGINT and SIGTERM set ``stop`` (the run's
    ``workers.base.Cancellation``; None before the run exists) and raise ``KeyboardInterrupt``
    or :class:`Terminated`. Nested blocks are fine: each restores the handlers it found. Outside
    the main thread it does nothing (Python delivers signals to the main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.getsignal(signum) for signum in _SIGNALS}

    def on_signal(signum: int, frame: Any) -> None:
        if stop is not None:
            stop.set()
        ignore_signals()
        if signum == signal.SIGTERM:
            raise Terminated()
        before = previous[signal.SIGINT]
        if callable(before) and before is not signal.default_int_handler:
            before(signum, frame)  # a handler of the caller's (a test harness) still hears it
        raise KeyboardInterrupt

    for signum in _SIGNALS:
        signal.signal(signum, on_signal)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
